/**
 * Rate resolution, pure: which document answers a (from, to) lookup on a date, and with what rate.
 * A timeline lists, newest first, every active document that can answer the pair; a lookup on a date takes the
 * first entry that is already valid.
 */
import { crossRate, invertRate } from './decimal';
import type { RateLeg } from './decimal';

/** A line of an active document, with the document's validity and number. */
export interface CandidateLine {
  readonly parentId: string;
  readonly validFrom: string;
  readonly number: number;
  readonly fromCurrency: string;
  readonly toCurrency: string;
  readonly factor: string;
}

type RateMethod = 'direct' | 'inverse' | 'cross';

export interface TimelineEntry {
  /** ISO 8601 UTC (`YYYY-MM-DDTHH:mm:ss.sssZ`, so text order is time order). */
  readonly validFrom: string;
  readonly number: number;
  /** Exact decimal text. */
  readonly rate: string;
  readonly method: RateMethod;
  /** The intermediate currency of a cross rate. */
  readonly via?: string;
}

interface DocumentLines {
  readonly validFrom: string;
  readonly number: number;
  /** `FROM>TO` -> factor. */
  readonly factors: Map<string, string>;
}

function groupByDocument(lines: readonly CandidateLine[]): Map<string, DocumentLines> {
  const documents = new Map<string, DocumentLines>();
  for (const line of lines) {
    let document = documents.get(line.parentId);
    if (!document) {
      document = { validFrom: line.validFrom, number: line.number, factors: new Map() };
      documents.set(line.parentId, document);
    }
    document.factors.set(`${line.fromCurrency}>${line.toCurrency}`, line.factor);
  }
  return documents;
}

/** The leg from -> to inside one document: the direct line, else the inverse of the opposite line. */
function findLeg(factors: ReadonlyMap<string, string>, from: string, to: string): RateLeg | undefined {
  const direct = factors.get(`${from}>${to}`);
  if (direct !== undefined) return { factor: direct, inverse: false };
  const opposite = factors.get(`${to}>${from}`);
  return opposite === undefined ? undefined : { factor: opposite, inverse: true };
}

/** Currencies linked to `currency` by some line of the document. */
function listPartners(factors: ReadonlyMap<string, string>, currency: string): Set<string> {
  const partners = new Set<string>();
  for (const pair of factors.keys()) {
    const [from = '', to = ''] = pair.split('>');
    if (from === currency) partners.add(to);
    else if (to === currency) partners.add(from);
  }
  return partners;
}

/** How one document answers from -> to: direct, inverse, or cross through the alphabetically first shared currency. */
export function resolveInDocument(
  factors: ReadonlyMap<string, string>,
  from: string,
  to: string,
): Omit<TimelineEntry, 'validFrom' | 'number'> | undefined {
  const pair = findLeg(factors, from, to);
  if (pair) return pair.inverse ? { rate: invertRate(pair.factor), method: 'inverse' } : { rate: pair.factor, method: 'direct' };
  const toPartners = listPartners(factors, to);
  const shared = [...listPartners(factors, from)].filter((currency) => currency !== to && toPartners.has(currency)).sort();
  for (const via of shared) {
    const first = findLeg(factors, from, via);
    const second = findLeg(factors, via, to);
    if (first && second) return { rate: crossRate(first, second), method: 'cross', via };
  }
  return undefined;
}

/** Every document that can answer from -> to, newest first (validFrom, then number, descending). */
export function buildTimeline(from: string, to: string, lines: readonly CandidateLine[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const document of groupByDocument(lines).values()) {
    const answer = resolveInDocument(document.factors, from, to);
    if (answer) entries.push({ validFrom: document.validFrom, number: document.number, ...answer });
  }
  return entries.sort((a, b) => (a.validFrom === b.validFrom ? b.number - a.number : a.validFrom < b.validFrom ? 1 : -1));
}

/** The entry that answers on `date`: the newest one already valid (`validFrom <= date`). */
export function pickRate(timeline: readonly TimelineEntry[], date: string): TimelineEntry | undefined {
  return timeline.find((entry) => entry.validFrom <= date);
}
