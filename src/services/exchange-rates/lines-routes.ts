/** Rate line operations: insert (204), attribute PUTs, custom attribute PUTs and delete. */
import type { Database } from '../../db/client';
import {
  buildCustomValueUpdate,
  CUSTOM_ATTRIBUTES_PROPERTY,
  mergeCustomValues,
  parsePrefixedCustomName,
} from '../../resources/entities/custom-attributes';
import { parseCustomColumn } from '../../resources/entities/resource';
import { findField } from '../../resources/entities/spec';
import { parseAttributeValue, unwrapValue } from '../../resources/entities/validate';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound, validationError } from '../../errors/api-error';
import { emptyResponse, etagOf } from '../../http/responses';
import { matchLiteralSegment } from '../../http/segments';
import { checkReferencesExist } from '../../resources/reference/store';
import { isGuid, isPlainObject } from '../../validation/values';
import { LINE_ATTRIBUTES, rateLineSpec } from './entity';
import { collectCurrencyUses, parseFactor, parseLineBody } from './lines-input';
import { buildLineDelete, buildLineInsert, buildLineUpdate, toLineRow } from './lines-store';
import { findLineThroughGroup, findNextLineNo } from './group-lines';
import type { DocumentRef, LineChange } from './lines-store';
import { parseDocumentNumber, writeLine } from './lines-write';
import { exchangeRateLines } from './table';
import type { RateLineRow } from './table';
import { message } from '../../messages/catalogue';
import { bindPropertyNames } from '../../validation/property-names';

const LINE_TITLE = rateLineSpec.title;

/** `{"value": {...line}, "customAttributes": {...}}` or the bare line. */
function unwrapLineBody(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  // `value` and `customAttributes` in any case, as every property name.
  const { values: wrapper, errors } = bindPropertyNames(body, ['value', CUSTOM_ATTRIBUTES_PROPERTY]);
  if (errors.length > 0) throw validationError(errors);
  const line = wrapper.value;
  if (!isPlainObject(line) || Object.keys(wrapper).some((key) => key !== 'value' && key !== CUSTOM_ATTRIBUTES_PROPERTY)) return body;
  const custom = wrapper[CUSTOM_ATTRIBUTES_PROPERTY];
  if (!isPlainObject(custom)) return line;
  const { values: inner } = bindPropertyNames(line, [CUSTOM_ATTRIBUTES_PROPERTY]);
  const lineCustom = inner[CUSTOM_ATTRIBUTES_PROPERTY];
  return { ...inner, [CUSTOM_ATTRIBUTES_PROPERTY]: { ...(isPlainObject(lineCustom) ? lineCustom : {}), ...custom } };
}

/** POST `/{number}/exchangeRateDocumentRates`: 204; a missing document is 400 RecordNotFound. */
export async function handleLineInsert(ctx: ApiContext) {
  const number = parseDocumentNumber(ctx.params.number);
  const body = unwrapLineBody(await readJsonBody(ctx.request, { exactNumberKeys: ['conversionFactor'] }));
  const { line, errors } = parseLineBody(body, '');
  if (!line) throw validationError(errors);
  await checkReferencesExist(
    ctx.db,
    ctx.scope,
    collectCurrencyUses([line], () => ''),
  );
  const version = await writeLine(ctx, number, false, async (db, document, stamp) => {
    // In an atomic group, the line number the insert takes after the group's lines (the insert computes it in SQL).
    const position = ctx.group ? await findNextLineNo(db, ctx.scope, ctx.group.overlay, document.id) : 0;
    const row = toLineRow(ctx.scope, document.id, position, line, stamp);
    return { statement: buildLineInsert(db, ctx.scope, document, row), effect: { id: row.id, image: row } };
  });
  return emptyResponse(204, { etag: etagOf(version) });
}

async function findLineOrFail(db: Database, ctx: ApiContext, document: DocumentRef, listed404: boolean): Promise<RateLineRow> {
  const lineId = (ctx.params.lineId ?? '').toLowerCase();
  const line = isGuid(lineId) ? await findLineThroughGroup(db, ctx.scope, ctx.group?.overlay, document.id, lineId) : undefined;
  if (!line) throw recordNotFound(`${LINE_TITLE} '${ctx.params.lineId ?? ''}'`, listed404, 'lineId');
  return line;
}

/** The change of one declared attribute; values are validated: texts, and nulls only for the optional ids. */
function buildLineChange(attribute: string, value: unknown): LineChange {
  const text = typeof value === 'string' ? value : null;
  switch (attribute) {
    case 'fromExchangeRateId':
      return { fromExchangeRateId: text };
    case 'toExchangeRateId':
      return { toExchangeRateId: text };
  }
  if (text === null) throw validationError([{ path: attribute, message: message('required', { field: attribute }) }]);
  if (attribute === 'conversionFactor') return { conversionFactor: text };
  if (attribute === 'fromCurrency') return { fromCurrency: text };
  return { toCurrency: text };
}

const CHANGE_KEYS = ['conversionFactor', 'fromCurrency', 'toCurrency', 'fromExchangeRateId', 'toExchangeRateId'] as const;

/** True when the line already holds every value of the change (an identical PUT changes nothing). */
function changesNothing(line: RateLineRow, change: LineChange): boolean {
  return CHANGE_KEYS.every((key) => !(key in change) || change[key] === line[key]);
}

/** The new value of a declared line attribute, validated (currencies must exist). */
async function parseLineAttribute(ctx: ApiContext, name: string): Promise<unknown> {
  const field = findField(rateLineSpec, name);
  if (!field) throw new ApiError('NotFound', `${LINE_TITLE} has no attribute '${name}'.`);
  const body = await readJsonBody(ctx.request, { exactNumberKeys: ['', 'value'] });
  const value = parseAttributeValue(name, field, body);
  if (name === 'conversionFactor') {
    const { factor, problem } = parseFactor(value);
    if (problem) throw validationError([{ path: name, message: problem }]);
    return factor;
  }
  if (field.reference && typeof value === 'string') {
    await checkReferencesExist(ctx.db, ctx.scope, [{ kind: field.reference, key: value, path: name }]);
  }
  return value;
}

/** PUT `/{number}/exchangeRateDocumentRates/{lineId}/{attribute}`: 200, empty. */
export async function handleLineAttributeUpdate(ctx: ApiContext) {
  const number = parseDocumentNumber(ctx.params.number);
  const segment = ctx.params.attribute ?? '';
  const attribute = matchLiteralSegment(LINE_ATTRIBUTES, segment);
  if (attribute === undefined) return updateLineCustomAttribute(ctx, number, segment);
  const change = buildLineChange(attribute, await parseLineAttribute(ctx, attribute));
  const version = await writeLine(ctx, number, false, async (db, document, stamp) => {
    const line = await findLineOrFail(db, ctx, document, false);
    if (changesNothing(line, change)) return { unchanged: true };
    const from = change.fromCurrency ?? line.fromCurrency;
    const to = change.toCurrency ?? line.toCurrency;
    if (from === to) throw validationError([{ path: attribute, message: message('currenciesDiffer') }]);
    // buildLineChange sets values, never SQL: the line's row as the update leaves it.
    const image = { ...line, ...(change as Partial<RateLineRow>), modifiedOn: stamp.on, modifiedBy: stamp.by };
    return { statement: buildLineUpdate(db, ctx.scope, document, line.id, change, stamp), effect: { id: line.id, image } };
  });
  return emptyResponse(200, { etag: etagOf(version) });
}

/** PUT `.../{lineId}/{custom_<name>}`: body `{"value": X}` or bare X; 404 for a missing document or line. */
async function updateLineCustomAttribute(ctx: ApiContext, number: number, rawName: string) {
  const name = parsePrefixedCustomName(rawName);
  if (!name) throw new ApiError('NotFound', `${LINE_TITLE} has no attribute '${rawName}'.`);
  const value = unwrapValue(await readJsonBody(ctx.request));
  const version = await writeLine(ctx, number, true, async (db, document, stamp) => {
    const line = await findLineOrFail(db, ctx, document, true);
    const stored = parseCustomColumn(line.customAttributes);
    if (name in stored && JSON.stringify(stored[name]) === JSON.stringify(value)) return { unchanged: true };
    // Merged into the stored JSON by the UPDATE itself: a concurrent PUT of another attribute is never lost.
    const customAttributes = buildCustomValueUpdate(exchangeRateLines.customAttributes, { [name]: value });
    const merged = mergeCustomValues(line.customAttributes, { [name]: value });
    const image = { ...line, customAttributes: merged, modifiedOn: stamp.on, modifiedBy: stamp.by };
    return { statement: buildLineUpdate(db, ctx.scope, document, line.id, { customAttributes }, stamp), effect: { id: line.id, image } };
  });
  return emptyResponse(200, { etag: etagOf(version) });
}

/** DELETE `/{number}/exchangeRateDocumentRates/{lineId}`: 204; 404 for a missing document or line. */
export async function handleLineDelete(ctx: ApiContext) {
  const number = parseDocumentNumber(ctx.params.number);
  await writeLine(ctx, number, true, async (db, document) => {
    const line = await findLineOrFail(db, ctx, document, true);
    return { statement: buildLineDelete(db, ctx.scope, document, line.id), effect: { id: line.id, image: null } };
  });
  return emptyResponse(204);
}
