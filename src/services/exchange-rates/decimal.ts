/** Exact decimals: canonical text as sent, JSON numbers written digit for digit, inverse and cross rates. */
import Decimal from 'decimal.js';

/** Computations run with 40 significant digits; computed rates are answered with 20. */
const Exact = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
const COMPUTED_DIGITS = 20;
const MAX_DECIMAL_TEXT = 64;
const PLAIN = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * A decimal's canonical text: the digits that were sent, as a valid JSON number (`.5` -> `0.5`, `5.` -> `5`,
 * `007.10` -> `7.10`, exponents expanded exactly). Undefined when it is not a plain decimal.
 */
export function canonicalizeDecimal(input: string): string | undefined {
  let text = input.trim();
  const negative = text.startsWith('-');
  if (negative || text.startsWith('+')) text = text.slice(1);
  if (/e/i.test(text)) {
    if (!/^(\d+(\.\d*)?|\.\d+)[eE][+-]?\d{1,4}$/.test(text)) return undefined;
    text = new Exact(text).toFixed();
  }
  const match = PLAIN.exec(text);
  if (!match) return undefined;
  const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = match[3] ?? match[2] ?? '';
  const body = fraction === '' ? whole : `${whole}.${fraction}`;
  const result = negative ? `-${body}` : body;
  return result.length > MAX_DECIMAL_TEXT ? undefined : result;
}

export function isPositiveDecimal(text: string): boolean {
  return new Exact(text).greaterThan(0);
}

/**
 * A JSON value that `JSON.stringify` writes as the given number text, verbatim (JSON.rawJSON): typed as the number
 * the answer carries on the wire (what the answer's schema describes).
 */
export function toJsonNumber(text: string): number {
  const raw: unknown = JSON.rawJSON(text);
  return raw as number;
}

/** 1 / factor, rounded to COMPUTED_DIGITS significant digits. */
export function invertRate(factor: string): string {
  return new Exact(1).dividedBy(factor).toSignificantDigits(COMPUTED_DIGITS).toFixed();
}

/** A rate through an intermediate currency: each leg is a factor or the inverse of one, multiplied exactly. */
export function crossRate(first: RateLeg, second: RateLeg): string {
  return legValue(first).times(legValue(second)).toSignificantDigits(COMPUTED_DIGITS).toFixed();
}

export interface RateLeg {
  readonly factor: string;
  readonly inverse: boolean;
}

function legValue(leg: RateLeg): Decimal {
  return leg.inverse ? new Exact(1).dividedBy(leg.factor) : new Exact(leg.factor);
}
