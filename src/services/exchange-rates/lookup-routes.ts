/** `handleRateLookup` and `handleRateLookupByCompany`, served from the cache. */
import type { InputDescription } from '../../resources/entities/spec';
import { companyInput, pairInput } from './lookup-input';
import { parseCreateBody } from '../../resources/entities/validate';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { ApiError, errorOfFields, validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { jsonResponse } from '../../http/responses';
import { pairLookupDoc } from './docs';
import { isPlainObject } from '../../validation/values';
import { toJsonNumber } from './decimal';
import { loadRatesGeneration, loadThroughCache } from './rate-cache';
import { buildTimeline, pickRate } from './rates';
import type { TimelineEntry } from './rates';
import { findBaseCurrency, findUnknownCurrencies, loadCandidateLines } from './rates-store';
import { message } from '../../messages/catalogue';

/** Inputs from the JSON body and/or the query string (the body wins); unknown names are refused. */
async function parseLookupInput(ctx: ApiContext, spec: InputDescription): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ctx.request, { optional: true });
  if (body !== undefined && body !== null && !isPlainObject(body)) {
    throw validationError([{ path: '', message: message('bodyMustBeObject') }]);
  }
  const merged: Record<string, unknown> = {};
  for (const [name, value] of ctx.url.searchParams) merged[name] = value;
  Object.assign(merged, body ?? {});
  return parseCreateBody(spec, merged).values;
}

/** Cached per generation and pair: unknown currencies, or every document that can answer, newest first. */
interface PairEntry {
  readonly unknown: string[];
  readonly timeline: TimelineEntry[];
}

/** Cached per generation and company: its base currency (null: no such company). */
interface CompanyEntry {
  readonly baseCurrency: string | null;
}

function isTimelineEntry(value: unknown): value is TimelineEntry {
  return (
    isPlainObject(value) &&
    typeof value.validFrom === 'string' &&
    typeof value.number === 'number' &&
    typeof value.rate === 'string' &&
    typeof value.method === 'string'
  );
}

function isPairEntry(value: unknown): value is PairEntry {
  return (
    isPlainObject(value) &&
    Array.isArray(value.unknown) &&
    value.unknown.every((key) => typeof key === 'string') &&
    Array.isArray(value.timeline) &&
    value.timeline.every(isTimelineEntry)
  );
}

function isCompanyEntry(value: unknown): value is CompanyEntry {
  return isPlainObject(value) && (typeof value.baseCurrency === 'string' || value.baseCurrency === null);
}

async function loadPair(ctx: ApiContext, from: string, to: string): Promise<PairEntry> {
  const unknown = await findUnknownCurrencies(ctx.tenant, [from, to]);
  if (unknown.length > 0 || from === to) return { unknown, timeline: [] };
  return { unknown, timeline: buildTimeline(from, to, await loadCandidateLines(ctx.tenant, from, to)) };
}

interface RateQuestion {
  readonly from: string;
  readonly to: string;
  readonly date: string;
  readonly fromPath: string;
  readonly toPath: string;
}

async function answerRate(ctx: ApiContext, generation: number, question: RateQuestion) {
  const { from, to, date } = question;
  const entry = await loadThroughCache(ctx, generation, `pair/${encodeURIComponent(from)}/${encodeURIComponent(to)}`, isPairEntry, () =>
    loadPair(ctx, from, to),
  );
  if (entry.unknown.length > 0) {
    const errors: FieldError[] = [];
    const unknown = (key: string) => message('unknownReference', { kind: 'currencies', key });
    if (entry.unknown.includes(from)) errors.push({ path: question.fromPath, message: unknown(from) });
    if (entry.unknown.includes(to) && to !== from) errors.push({ path: question.toPath, message: unknown(to) });
    throw errorOfFields('UnknownReference', errors);
  }
  const answer = (rate: string, rateDate: string) =>
    jsonResponse(pairLookupDoc.responses[200].schema, {
      currencyFromKey: from,
      currencyToKey: to,
      exchangeRate: toJsonNumber(rate),
      exchangeRateDate: rateDate,
    });
  if (from === to) return answer('1', date);
  const picked = pickRate(entry.timeline, date);
  if (!picked)
    throw new ApiError('RecordNotFound', `No active exchange rates document valid on ${date} converts ${from} to ${to}.`, { status: 404 });
  return answer(picked.rate, picked.validFrom);
}

function parseReferencedDate(ctx: ApiContext, input: Record<string, unknown>): string {
  return typeof input.referencedDate === 'string' ? input.referencedDate : ctx.platform.now().toISOString();
}

/** POST `/getCurrencyExchangeRates`: ExchangeCurrencyRate, or 404 RecordNotFound when no document answers. */
export async function handleRateLookup(ctx: ApiContext) {
  const input = await parseLookupInput(ctx, pairInput);
  const generation = await loadRatesGeneration(ctx);
  return answerRate(ctx, generation, {
    from: String(input.currencyFromKey),
    to: String(input.currencyToKey),
    date: parseReferencedDate(ctx, input),
    fromPath: 'currencyFromKey',
    toPath: 'currencyToKey',
  });
}

/** POST `/getCurrencyExchangeRatesByCompany`: `currencyKey` converted into the company's base currency. */
export async function handleRateLookupByCompany(ctx: ApiContext) {
  const input = await parseLookupInput(ctx, companyInput);
  const companyKey = String(input.companyKey);
  const generation = await loadRatesGeneration(ctx);
  const company = await loadThroughCache(ctx, generation, `company/${encodeURIComponent(companyKey)}`, isCompanyEntry, async () => ({
    baseCurrency: await findBaseCurrency(ctx.tenant, companyKey),
  }));
  if (company.baseCurrency === null) {
    throw errorOfFields('UnknownReference', [
      { path: 'companyKey', message: message('unknownReference', { kind: 'companies', key: companyKey }) },
    ]);
  }
  return answerRate(ctx, generation, {
    from: String(input.currencyKey),
    to: company.baseCurrency,
    date: parseReferencedDate(ctx, input),
    fromPath: 'currencyKey',
    toPath: 'companyKey',
  });
}
