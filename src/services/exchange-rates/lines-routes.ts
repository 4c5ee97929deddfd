/** Rate line operations: insert (204), attribute PUTs, custom attribute PUTs and delete (SPEC 4.5). */
import { parseCustomColumn } from '../../entities/resource';
import { readAttributeValue, isPlainObject, unwrapValue } from '../../entities/validate';
import { isGuid } from '../../entities/values';
import { readPrefixedCustomName } from '../../entities/custom-attributes';
import { readDatabase } from '../../db/client';
import type { Database } from '../../db/client';
import { scopeOf } from '../../entities/handlers';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound, validationError } from '../../http/errors';
import { emptyResponse, etagOf } from '../../http/responses';
import { matchLiteralSegment } from '../../http/segments';
import { assertReferencesExist } from '../../reference/store';
import { LINE_ATTRIBUTES, rateLineSpec } from './entity';
import { collectCurrencyUses, readFactor, readLineBody } from './lines-input';
import { deleteLineAt, insertLineAt, readLine, toLineRow, updateLineAt } from './lines-store';
import type { DocumentRef } from './lines-store';
import { readDocumentNumber, writeLine } from './lines-write';
import type { RateLineRow } from './table';

const LINE_TITLE = rateLineSpec.title;

/** `{"value": {...line}, "customAttributes": {...}}` or the bare line. */
function unwrapLineBody(body: unknown): unknown {
  if (!isPlainObject(body) || !isPlainObject(body.value)) return body;
  if (Object.keys(body).some((key) => key !== 'value' && key !== 'customAttributes')) return body;
  const custom = body.customAttributes;
  return isPlainObject(custom)
    ? { ...body.value, customAttributes: { ...(isPlainObject(body.value.customAttributes) ? body.value.customAttributes : {}), ...custom } }
    : body.value;
}

/** POST `/{number}/exchangeRateDocumentRates`: 204; a missing document is 400 RecordNotFound. */
export async function insertLine(ctx: ApiContext): Promise<Response> {
  const number = readDocumentNumber(ctx.params.number);
  const body = unwrapLineBody(await readJsonBody(ctx.request, { exactNumberKeys: ['conversionFactor'] }));
  const { line, errors } = readLineBody(body, '');
  if (!line) throw validationError(errors);
  await assertReferencesExist(
    readDatabase(ctx.platform.db),
    scopeOf(ctx),
    collectCurrencyUses([line], () => ''),
  );
  const version = await writeLine(ctx, number, false, async (db, document, stamp) => ({
    statement: insertLineAt(db, document, toLineRow(scopeOf(ctx), document.id, 0, line, stamp)),
  }));
  return emptyResponse(204, { etag: etagOf(version) });
}

async function readLineOrFail(db: Database, ctx: ApiContext, document: DocumentRef, listed404: boolean): Promise<RateLineRow> {
  const lineId = (ctx.params.lineId ?? '').toLowerCase();
  const line = isGuid(lineId) ? await readLine(db, scopeOf(ctx), document.id, lineId) : undefined;
  if (!line) throw recordNotFound(`${LINE_TITLE} '${ctx.params.lineId ?? ''}'`, listed404);
  return line;
}

/** The new value of a declared line attribute, validated (currencies must exist). */
async function readLineAttribute(ctx: ApiContext, name: string): Promise<unknown> {
  const field = rateLineSpec.fields[name];
  if (!field) throw new ApiError('NotFound', `${LINE_TITLE} has no attribute '${name}'.`);
  const body = await readJsonBody(ctx.request, { exactNumberKeys: ['', 'value'] });
  const value = readAttributeValue(name, field, body);
  if (name === 'conversionFactor') {
    const { factor, message } = readFactor(value);
    if (message) throw validationError([{ path: name, message }]);
    return factor;
  }
  if (field.reference && typeof value === 'string') {
    await assertReferencesExist(readDatabase(ctx.platform.db), scopeOf(ctx), [{ kind: field.reference, key: value, path: name }]);
  }
  return value;
}

/** PUT `/{number}/exchangeRateDocumentRates/{lineId}/{attribute}`: 200, empty. */
export async function updateLineAttribute(ctx: ApiContext): Promise<Response> {
  const number = readDocumentNumber(ctx.params.number);
  const segment = ctx.params.attribute ?? '';
  const attribute = matchLiteralSegment(LINE_ATTRIBUTES, segment);
  if (attribute === undefined) return updateLineCustomAttribute(ctx, number, segment);
  const value = await readLineAttribute(ctx, attribute);
  const version = await writeLine(ctx, number, false, async (db, document, stamp) => {
    const line = await readLineOrFail(db, ctx, document, false);
    const from = attribute === 'fromCurrency' ? value : line.fromCurrency;
    const to = attribute === 'toCurrency' ? value : line.toCurrency;
    if (from === to) throw validationError([{ path: attribute, message: 'fromCurrency and toCurrency must differ' }]);
    return { statement: updateLineAt(db, scopeOf(ctx), document, line.id, { [attribute]: value }, stamp) };
  });
  return emptyResponse(200, { etag: etagOf(version) });
}

/** PUT `.../{lineId}/{custom_<name>}`: body `{"value": X}` or bare X; 404 for a missing document or line. */
async function updateLineCustomAttribute(ctx: ApiContext, number: number, rawName: string): Promise<Response> {
  const name = readPrefixedCustomName(rawName);
  if (!name) throw new ApiError('NotFound', `${LINE_TITLE} has no attribute '${rawName}'.`);
  const value = unwrapValue(await readJsonBody(ctx.request));
  const version = await writeLine(ctx, number, true, async (db, document, stamp) => {
    const line = await readLineOrFail(db, ctx, document, true);
    const merged = { ...parseCustomColumn(line.customAttributes), [name]: value };
    return { statement: updateLineAt(db, scopeOf(ctx), document, line.id, { customAttributes: JSON.stringify(merged) }, stamp) };
  });
  return emptyResponse(200, { etag: etagOf(version) });
}

/** DELETE `/{number}/exchangeRateDocumentRates/{lineId}`: 204; 404 for a missing document or line. */
export async function deleteLine(ctx: ApiContext): Promise<Response> {
  const number = readDocumentNumber(ctx.params.number);
  await writeLine(ctx, number, true, async (db, document) => {
    const line = await readLineOrFail(db, ctx, document, true);
    return { statement: deleteLineAt(db, scopeOf(ctx), document, line.id) };
  });
  return emptyResponse(204);
}
