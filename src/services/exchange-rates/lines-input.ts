/** Validation of rate line bodies (create's `exchangeRateDocumentRates` and the line insert). */
import type { CustomValues } from '../../resources/entities/custom-attributes';
import { parseCreateBody } from '../../resources/entities/validate';
import { isPlainObject } from '../../validation/values';
import { ApiError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { canonicalizeReferenceKey } from '../../resources/reference/kinds';
import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';
import { bindPropertyNames } from '../../validation/property-names';
import type { ReferenceUse } from '../../resources/reference/store';
import { canonicalizeDecimal, isPositiveDecimal } from './decimal';
import { LINE_ATTRIBUTES, rateLineSpec } from './entity';

export const LINES_PROPERTY = 'exchangeRateDocumentRates';
/** Most lines one document may be created with. */
export const MAX_LINES = 1000;

export interface LineInput {
  readonly conversionFactor: string;
  readonly fromCurrency: string;
  readonly toCurrency: string;
  readonly fromExchangeRateId: string | null;
  readonly toExchangeRateId: string | null;
  readonly custom: CustomValues;
}

function joinPath(prefix: string, path: string): string {
  return [prefix, path].filter((part) => part !== '').join('.');
}

const FACTOR = { field: 'conversionFactor' };

/** A conversion factor -> its canonical exact text, or the problem with it. */
export function parseFactor(value: unknown): { factor?: string; problem?: Message } {
  const factor = typeof value === 'string' ? canonicalizeDecimal(value) : undefined;
  if (factor === undefined) return { problem: message('mustBeDecimal', FACTOR) };
  if (!isPositiveDecimal(factor)) return { problem: message('mustBePositive', FACTOR) };
  return { factor };
}

/** The line rules beyond field types (factor > 0, currencies differ), checked on the raw body. */
function checkLineRules(body: Record<string, unknown>, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const { values } = bindPropertyNames(body, LINE_ATTRIBUTES);
  const raw = values.conversionFactor;
  if (typeof raw === 'string' || typeof raw === 'number') {
    const { problem } = parseFactor(String(raw));
    if (problem) errors.push({ path: joinPath(prefix, 'conversionFactor'), message: problem });
  }
  const [from, to] = [values.fromCurrency, values.toCurrency];
  if (
    typeof from === 'string' &&
    typeof to === 'string' &&
    canonicalizeReferenceKey('currencies', from) === canonicalizeReferenceKey('currencies', to)
  ) {
    errors.push({ path: joinPath(prefix, 'toCurrency'), message: message('currenciesDiffer') });
  }
  return errors;
}

/** Adds `more` errors for paths not already named. */
function mergeErrors(errors: FieldError[], more: readonly FieldError[]): FieldError[] {
  const named = new Set(errors.map((error) => error.path));
  return [...errors, ...more.filter((error) => !named.has(error.path))];
}

/** One line body; `prefix` is the path of the line in the request (`exchangeRateDocumentRates.2`). */
export function parseLineBody(body: unknown, prefix: string): { line?: LineInput; errors: FieldError[] } {
  const rules = isPlainObject(body) ? checkLineRules(body, prefix) : [];
  let input: ReturnType<typeof parseCreateBody>;
  try {
    input = parseCreateBody(rateLineSpec, body);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {
      errors: mergeErrors(
        error.errors.map((item) => ({ path: joinPath(prefix, item.path), message: item.message })),
        rules,
      ),
    };
  }
  if (rules.length > 0) return { errors: rules };
  const { factor, problem } = parseFactor(input.values.conversionFactor);
  if (factor === undefined)
    return { errors: [{ path: joinPath(prefix, 'conversionFactor'), message: problem ?? message('notValid', FACTOR) }] };
  const values = input.values;
  return {
    errors: [],
    line: {
      conversionFactor: factor,
      fromCurrency: String(values.fromCurrency),
      toCurrency: String(values.toCurrency),
      fromExchangeRateId: typeof values.fromExchangeRateId === 'string' ? values.fromExchangeRateId : null,
      toExchangeRateId: typeof values.toExchangeRateId === 'string' ? values.toExchangeRateId : null,
      custom: input.custom,
    },
  };
}

const parsedLines = new WeakMap<object, { lines: LineInput[]; errors: FieldError[] }>();

/** The lines of a create body (absent or null: none); every bad line and field is named. */
export function parseLinesInput(extra: Record<string, unknown>): { lines: LineInput[]; errors: FieldError[] } {
  const cached = parsedLines.get(extra);
  if (cached) return cached;
  const raw = extra[LINES_PROPERTY];
  const result: { lines: LineInput[]; errors: FieldError[] } = { lines: [], errors: [] };
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw)) result.errors.push({ path: LINES_PROPERTY, message: message('mustBeLineList', { field: LINES_PROPERTY }) });
    else if (raw.length > MAX_LINES) {
      result.errors.push({ path: LINES_PROPERTY, message: message('tooManyItems', { field: LINES_PROPERTY, max: MAX_LINES }) });
    } else parseEachLine(raw, result);
  }
  parsedLines.set(extra, result);
  return result;
}

function parseEachLine(raw: readonly unknown[], result: { lines: LineInput[]; errors: FieldError[] }): void {
  const seen = new Map<string, number>();
  raw.forEach((item, index) => {
    const prefix = `${LINES_PROPERTY}.${index}`;
    if (!isPlainObject(item)) {
      result.errors.push({ path: prefix, message: message('mustBeObject', { field: prefix }) });
      return;
    }
    const { line, errors } = parseLineBody(item, prefix);
    result.errors.push(...errors);
    if (!line) return;
    const pair = `${line.fromCurrency}>${line.toCurrency}`;
    const first = seen.get(pair);
    if (first !== undefined) {
      result.errors.push({ path: prefix, message: message('pairRepeated', { from: line.fromCurrency, to: line.toCurrency, first }) });
    } else seen.set(pair, index);
    result.lines.push(line);
  });
}

/** The currency references of lines (checked against the standard currency list). */
export function collectCurrencyUses(lines: readonly LineInput[], prefix: (index: number) => string): ReferenceUse[] {
  return lines.flatMap((line, index) => [
    { kind: 'currencies', key: line.fromCurrency, path: joinPath(prefix(index), 'fromCurrency') },
    { kind: 'currencies', key: line.toCurrency, path: joinPath(prefix(index), 'toCurrency') },
  ]);
}
