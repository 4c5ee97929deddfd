/** The generic entity operations: create, read, list, attribute updates, delete. */
import type { BatchItem } from 'drizzle-orm/batch';
import { readDatabase } from '../db/client';
import { readJsonBody } from '../http/body';
import type { JsonBodyOptions } from '../http/body';
import type { ApiContext } from '../http/context';
import { ApiError, recordNotFound, validationError } from '../http/errors';
import type { FieldError } from '../http/errors';
import { createdResponse, emptyResponse, etagOf, jsonResponse } from '../http/responses';
import { compileODataQuery } from '../odata/compile';
import { parseODataQuery } from '../odata/parse-query';
import { buildNextPageLink } from '../odata/page-link';
import { assertReferencesExist } from '../reference/store';
import type { ReferenceUse } from '../reference/store';
import { readCustomDefinitions, readPrefixedCustomName, validateCustomValues } from './custom-attributes';
import type { CustomValues } from './custom-attributes';
import { readIfMatch } from './lookup';
import { listODataFields } from './odata-fields';
import { deleteRow, insertRow, listRows, readRow, updateRow } from './repository';
import type { EntityStore, RecordLookup, Row } from './repository';
import { parseCustomColumn, toPartialResource, toResource } from './resource';
import type { Resource } from './resource';
import type { Values } from './spec';
import { readAttributeValue, readCreateBody } from './validate';

export function stampOf(ctx: ApiContext): { on: string; by: string } {
  return { on: ctx.platform.now().toISOString(), by: ctx.principal.subject };
}

export function scopeOf(ctx: ApiContext): { tenantKey: string; orgKey: string } {
  return { tenantKey: ctx.tenantKey, orgKey: ctx.orgKey };
}

/** Reference uses of declared fields (`reference` kinds) for the values given. */
export function collectReferenceUses(store: EntityStore, values: Values): ReferenceUse[] {
  const uses: ReferenceUse[] = [];
  for (const [name, field] of Object.entries(store.spec.fields)) {
    const value = values[name];
    if (field.reference && typeof value === 'string' && value !== '') uses.push({ kind: field.reference, key: value, path: name });
  }
  return uses;
}

async function checkCustomValues(
  ctx: ApiContext,
  store: EntityStore,
  input: CustomValues,
  mode: 'create' | 'update',
): Promise<CustomValues> {
  if (!store.spec.customAttributes) return {};
  const definitions = await readCustomDefinitions(readDatabase(ctx.platform.db), scopeOf(ctx), store.spec.name);
  const { values, errors } = validateCustomValues(input, definitions, mode);
  if (errors.length > 0) throw validationError(errors);
  return values;
}

export interface CreateOptions {
  /** Body properties handled by the service (e.g. nested rate lines). */
  readonly extraProperties?: readonly string[];
  /** Options of the JSON body reader (e.g. `exactNumberKeys` for decimals kept digit for digit). */
  readonly body?: JsonBodyOptions;
  /** Validates the extra properties together with the declared fields (every bad field in one answer). */
  validateExtra?(extra: Record<string, unknown>): FieldError[];
  /** Further validation and normalisation of the create input; may add reference uses. */
  prepare?(ctx: ApiContext, values: Values, extra: Record<string, unknown>): Promise<{ uses?: ReferenceUse[] } | undefined>;
  /** Statements written in the same batch as the insert (one transaction). */
  statements?(ctx: ApiContext, id: string, values: Values, extra: Record<string, unknown>): BatchItem<'sqlite'>[];
}

export async function createRecord(ctx: ApiContext, store: EntityStore, options: CreateOptions = {}): Promise<Response> {
  const body = await readJsonBody(ctx.request, options.body);
  const input = readCreateBody(store.spec, body, options.extraProperties, options.validateExtra);
  const db = readDatabase(ctx.platform.db);
  const prepared = (await options.prepare?.(ctx, input.values, input.extra)) ?? {};
  const custom = await checkCustomValues(ctx, store, input.custom, 'create');
  const uses = [...collectReferenceUses(store, input.values), ...(prepared.uses ?? [])];
  if (uses.length > 0) await assertReferencesExist(db, scopeOf(ctx), uses);
  const hookErrors = (await store.spec.hooks?.validateCreate?.(ctx, input.values)) ?? [];
  if (hookErrors.length > 0) throw validationError(hookErrors);
  const id = crypto.randomUUID();
  const stamp = stampOf(ctx);
  const row: Row = {
    id,
    tenantKey: ctx.tenantKey,
    orgKey: ctx.orgKey,
    ...input.values,
    ...(store.spec.customAttributes ? { customAttributes: JSON.stringify(custom) } : {}),
    isActive: true,
    version: 1,
    createdOn: stamp.on,
    createdBy: stamp.by,
    modifiedOn: stamp.on,
    modifiedBy: stamp.by,
  };
  await insertRow(db, store, row, options.statements?.(ctx, id, input.values, input.extra) ?? []);
  return createdResponse(id, `${ctx.apiBase}${store.spec.basePath}/${id}`);
}

export async function readRecordRow(ctx: ApiContext, store: EntityStore, lookup: RecordLookup): Promise<Row> {
  const row = await readRow(readDatabase(ctx.platform.db), store, scopeOf(ctx), lookup);
  if (!row) throw recordNotFound(store.spec.title, true);
  return row;
}

export type Decorate = (ctx: ApiContext, rows: Row[], resources: Resource[]) => Promise<void>;

export async function readRecord(ctx: ApiContext, store: EntityStore, lookup: RecordLookup, decorate?: Decorate): Promise<Response> {
  const row = await readRecordRow(ctx, store, lookup);
  const resource = toResource(store.spec, row);
  await decorate?.(ctx, [row], [resource]);
  return jsonResponse(resource, { headers: { etag: etagOf(Number(row.version)) } });
}

/** Explains a failed conditional write: missing record (404 or 400) or a stale `If-Match` (412). */
async function explainMiss(ctx: ApiContext, store: EntityStore, lookup: RecordLookup, listed404: boolean): Promise<never> {
  const row = await readRow(readDatabase(ctx.platform.db), store, scopeOf(ctx), lookup);
  if (!row) throw recordNotFound(store.spec.title, listed404);
  throw new ApiError('PreconditionFailed', `If-Match does not match the current version ${String(row.version)}.`, {
    headers: { etag: etagOf(Number(row.version)) },
  });
}

export async function deleteRecord(ctx: ApiContext, store: EntityStore, lookup: RecordLookup): Promise<Response> {
  const expected = readIfMatch(ctx.request);
  const deleted = await deleteRow(readDatabase(ctx.platform.db), store, scopeOf(ctx), lookup, expected);
  if (!deleted) return explainMiss(ctx, store, lookup, true);
  return emptyResponse(204);
}

export interface AttributeOptions {
  /** 404 (rather than 400 RecordNotFound) for a missing record, where SPEC.md lists it. */
  readonly listed404: boolean;
  /** Service rules for the new value (references, consistency); may throw. */
  check?(ctx: ApiContext, value: unknown): Promise<void>;
}

export async function updateAttribute(
  ctx: ApiContext,
  store: EntityStore,
  lookup: RecordLookup,
  name: string,
  options: AttributeOptions,
): Promise<Response> {
  const body = await readJsonBody(ctx.request);
  let value: unknown;
  if (name === 'isActive') {
    value = readAttributeValue('isActive', { kind: 'bool', column: 'is_active', description: 'Active', required: true }, body);
  } else {
    const field = store.spec.fields[name];
    if (!field) throw new ApiError('NotFound', `Unknown attribute ${name}.`);
    value = readAttributeValue(name, field, body);
    const uses = collectReferenceUses(store, { [name]: value });
    if (uses.length > 0) await assertReferencesExist(readDatabase(ctx.platform.db), scopeOf(ctx), uses);
  }
  await options.check?.(ctx, value);
  const version = await updateRow(
    readDatabase(ctx.platform.db),
    store,
    scopeOf(ctx),
    lookup,
    { [name]: value },
    stampOf(ctx),
    readIfMatch(ctx.request),
  );
  if (version === undefined) return explainMiss(ctx, store, lookup, options.listed404);
  return emptyResponse(200, { etag: etagOf(version) });
}

/** PUT `{custom_<name>}`: body `{"value": X}` or bare X; 404 for a missing record. */
export async function updateCustomAttribute(ctx: ApiContext, store: EntityStore, lookup: RecordLookup, rawName: string): Promise<Response> {
  const name = readPrefixedCustomName(rawName);
  if (!store.spec.customAttributes || !name) {
    throw new ApiError('NotFound', `${store.spec.title} has no attribute '${rawName}'.`);
  }
  const body = await readJsonBody(ctx.request);
  const value =
    body !== null && typeof body === 'object' && !Array.isArray(body) && 'value' in body ? (body as { value: unknown }).value : body;
  const checked = await checkCustomValues(ctx, store, { [name]: value }, 'update');
  const db = readDatabase(ctx.platform.db);
  const row = await readRow(db, store, scopeOf(ctx), lookup);
  if (!row) throw recordNotFound(store.spec.title, true);
  const merged = { ...parseCustomColumn(row.customAttributes), ...checked };
  const expected = readIfMatch(ctx.request) ?? Number(row.version);
  const version = await updateRow(
    db,
    store,
    scopeOf(ctx),
    { by: 'id', id: String(row.id) },
    { customAttributes: JSON.stringify(merged) },
    stampOf(ctx),
    expected,
  );
  if (version === undefined) return explainMiss(ctx, store, lookup, true);
  return emptyResponse(200, { etag: etagOf(version) });
}

export async function listRecords(ctx: ApiContext, store: EntityStore, decorate?: Decorate): Promise<Response> {
  const fields = listODataFields(store.spec);
  const query = parseODataQuery(ctx.url.searchParams, fields);
  const compiled = compileODataQuery(query);
  const select = query.select?.map((field) => field.name);
  const page = await listRows(readDatabase(ctx.platform.db), store, scopeOf(ctx), compiled, {
    top: query.top,
    skip: query.skip,
    count: query.count,
    ...(select ? { select } : {}),
  });
  let items: Resource[];
  if (select) items = page.rows.map((row) => toPartialResource(row, select));
  else {
    items = page.rows.map((row) => toResource(store.spec, row));
    await decorate?.(ctx, page.rows, items);
  }
  const body: Record<string, unknown> = { items };
  if (page.count !== undefined) body.count = page.count;
  if (page.hasMore) body.nextPageLink = buildNextPageLink(ctx.url, query.top, query.skip);
  return jsonResponse(body);
}
