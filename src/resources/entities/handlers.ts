/** The generic entity operations behind the derived routes: read, list, attribute updates, delete (create: create.ts). */
import { writeUnderRules } from '../../db/rules';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound, validationError } from '../../errors/api-error';
import type { Answer } from '../../http/answer';
import { emptyResponse, etagOf, jsonResponse } from '../../http/responses';
import { compileODataQuery } from '../../odata/compile';
import { decodeSkipToken, describeCursorContext, encodeSkipToken, toCursorValue } from '../../odata/cursor';
import { buildNextPageLink } from '../../odata/page-link';
import { parseODataQuery } from '../../odata/parse-query';
import { checkReferencesExist } from '../reference/store';
import type { ReferenceUse } from '../reference/store';
import { isPlainObject } from '../../validation/values';
import { AUDIT_FIELDS } from './audit';
import {
  buildCustomValueUpdate,
  loadCustomDefinitions,
  mergeCustomValues,
  parsePrefixedCustomName,
  validateCustomValues,
} from './custom-attributes';
import type { CustomValues } from './custom-attributes';
import { parseIfMatch } from './lookup';
import { listODataFields } from './odata-fields';
import { toPartialResource, toResource } from './resource';
import type { Resource } from './resource';
import { buildEntitySchemas } from './doc-schemas';
import type { EntityPage } from './doc-schemas';
import type { EntitySpec } from './spec';
import { buildListQueries, listRecordPage } from './list-queries';
import { openEntityRepository } from './repository';
import type { EntityRepository } from './repository';
import type { AuditStamp, EntityRecord, EntityStore, RecordLookup } from './store';
import { commitAlone } from '../../tenant/unit-of-work';
import { collectReferenceUses, parseAttributeValue } from './validate';

/** Who changes a record now: the request's clock and the token's subject. */
export function buildAuditStamp(ctx: ApiContext): AuditStamp {
  return { on: ctx.platform.now().toISOString(), by: ctx.principal.subject };
}

/** The path parameters that name the record (for RecordNotFound). */
export function listRecordParams(ctx: ApiContext): string[] {
  return Object.keys(ctx.params).filter((name) => name !== 'tenantKey' && name !== 'orgKey' && name !== 'customAttributeName');
}

async function checkCustomValues(ctx: ApiContext, spec: EntitySpec, input: CustomValues, mode: 'create' | 'update'): Promise<CustomValues> {
  if (!spec.customAttributes) return {};
  const definitions = await loadCustomDefinitions(ctx.tenant, spec.name, ctx.tenant.group?.overlay);
  const { values, errors } = validateCustomValues(input, definitions, mode);
  if (errors.length > 0) throw validationError(errors);
  return values;
}

/** Adds related data (route members, rate lines) to the resources of read and list answers. */
export type Decorate = (ctx: ApiContext, rows: readonly Readonly<Record<string, unknown>>[], resources: Resource[]) => Promise<void>;

export async function handleRead(
  ctx: ApiContext,
  store: EntityStore,
  lookup: RecordLookup,
  decorate?: Decorate,
): Promise<Answer<200, Resource>> {
  const row = await openEntityRepository(ctx.tenant, store).find(lookup);
  if (!row) throw recordNotFound(store.spec.title, true, listRecordParams(ctx));
  const resource = toResource(store.spec, row);
  await decorate?.(ctx, [row], [resource]);
  return jsonResponse(buildEntitySchemas(store.spec).resource, resource, { headers: { etag: etagOf(row.version) } });
}

/** Explains a failed conditional write: missing record (404 or 400) or a stale `If-Match` (412). */
async function explainMiss(
  ctx: ApiContext,
  repository: EntityRepository<EntitySpec>,
  lookup: RecordLookup,
  listed404: boolean,
): Promise<never> {
  const row = await repository.find(lookup);
  if (!row) throw recordNotFound(repository.store.spec.title, listed404, listRecordParams(ctx));
  throw new ApiError('PreconditionFailed', `If-Match does not match the current version ${row.version}.`, {
    headers: { etag: etagOf(row.version) },
  });
}

/** Explains an attribute update that changed nothing: missing record, stale `If-Match` (412), or a no-op (200). */
async function answerUnchanged(
  ctx: ApiContext,
  repository: EntityRepository<EntitySpec>,
  lookup: RecordLookup,
  listed404: boolean,
  expected: number | undefined,
): Promise<Answer<200, null>> {
  const row = await repository.find(lookup);
  if (!row) throw recordNotFound(repository.store.spec.title, listed404, listRecordParams(ctx));
  if (expected !== undefined && row.version !== expected) return explainMiss(ctx, repository, lookup, listed404);
  return emptyResponse(200, { etag: etagOf(row.version) });
}

export async function handleDelete(ctx: ApiContext, store: EntityStore, lookup: RecordLookup): Promise<Answer<204, null>> {
  const unit = ctx.tenant;
  const repository = openEntityRepository(unit, store);
  const target = { lookup, expectedVersion: parseIfMatch(ctx.request) };
  const deleted = await commitAlone(unit, (batch) => repository.stageDelete(batch, target));
  if (!deleted) return explainMiss(ctx, repository, lookup, true);
  return emptyResponse(204);
}

interface AttributeOptions {
  /** 404 (rather than 400 RecordNotFound) for a missing record, where the operation documents it. */
  readonly listed404: boolean;
  /** Service rules for the new value (references, consistency); may throw. */
  check?(ctx: ApiContext, value: unknown): Promise<void>;
}

export async function handleAttributeUpdate(
  ctx: ApiContext,
  store: EntityStore,
  lookup: RecordLookup,
  name: string,
  options: AttributeOptions,
): Promise<Answer<200, null>> {
  const body = await readJsonBody(ctx.request);
  let value: unknown;
  let uses: ReferenceUse[] = [];
  if (name === 'isActive') {
    value = parseAttributeValue(name, AUDIT_FIELDS.isActive, body);
  } else {
    const field = store.spec.fields[name];
    if (!field) throw new ApiError('NotFound', `Unknown attribute ${name}.`);
    value = parseAttributeValue(name, field, body);
    uses = collectReferenceUses(store.spec, { [name]: value });
  }
  const check = async () => {
    if (uses.length > 0) await checkReferencesExist(ctx.tenant, uses, ctx.tenant.group?.overlay);
    await options.check?.(ctx, value);
  };
  await check();
  const expected = parseIfMatch(ctx.request);
  const unit = ctx.tenant;
  const repository = openEntityRepository(unit, store);
  const target = { lookup, expectedVersion: expected, recheck: check };
  // The database checks the same rules in the update's batch: a concurrent write that broke one is answered as above.
  const version = await writeUnderRules(
    () => commitAlone(unit, (batch) => repository.stageUpdate(batch, target, { [name]: value })),
    check,
    [name],
  );
  if (version === undefined) return answerUnchanged(ctx, repository, lookup, options.listed404, expected);
  return emptyResponse(200, { etag: etagOf(version) });
}

/** PUT `{custom_<name>}`: body `{"value": X}` or bare X; 404 for a missing record. */
export async function handleCustomAttributeUpdate(
  ctx: ApiContext,
  store: EntityStore,
  lookup: RecordLookup,
  rawName: string,
): Promise<Answer<200, null>> {
  const name = parsePrefixedCustomName(rawName);
  if (!store.spec.customAttributes || !name) {
    throw new ApiError('NotFound', `${store.spec.title} has no attribute '${rawName}'.`);
  }
  const body = await readJsonBody(ctx.request);
  // ExtensibilityCustomAttributeValueResource: `{"value": X}` (the name in any case), else the bare value.
  const valueKey = isPlainObject(body) ? Object.keys(body).find((key) => key.toLowerCase() === 'value') : undefined;
  const value = isPlainObject(body) && valueKey !== undefined ? body[valueKey] : body;
  const checked = await checkCustomValues(ctx, store.spec, { [name]: value }, 'update');
  // Merged into the stored JSON by the UPDATE itself: concurrent PUTs of other attributes are never lost, and no
  // version is needed when the client sends no If-Match.
  const customAttributes = buildCustomValueUpdate(store.common.customAttributes, checked);
  const expected = parseIfMatch(ctx.request);
  const unit = ctx.tenant;
  const repository = openEntityRepository(unit, store);
  // In an atomic group the merge is computed from the record as the group sees it (written at the version read).
  const target = {
    lookup,
    expectedVersion: expected,
    compute: (current: EntityRecord) => ({ customAttributes: mergeCustomValues(current.customAttributes, checked) }),
  };
  const version = await commitAlone(unit, (batch) => repository.stageUpdate(batch, target, { customAttributes }));
  if (version === undefined) return answerUnchanged(ctx, repository, lookup, true, expected);
  return emptyResponse(200, { etag: etagOf(version) });
}

export async function handleList(ctx: ApiContext, store: EntityStore, decorate?: Decorate): Promise<Answer<200, EntityPage>> {
  const query = parseODataQuery(ctx.url.searchParams, listODataFields(store.spec));
  const select = query.select?.map((field) => field.name);
  const compiled = compileODataQuery(query);
  const cursorContext = describeCursorContext(ctx.url.pathname, query, compiled.orderColumns);
  const after =
    query.skipToken === undefined
      ? undefined
      : await decodeSkipToken(cursorContext, query.skipToken, compiled.orderColumns.length, ctx.platform.config.pageTokenSecret);
  const request = after ? { ...query, after } : query;
  const page = await listRecordPage(ctx.tenant, buildListQueries(store, ctx.tenant.scope, compiled, request, select), request);
  let items: Resource[];
  if (select) items = page.rows.map((row) => toPartialResource(row, select));
  else {
    items = page.rows.map((row) => toResource(store.spec, row));
    await decorate?.(ctx, page.rows, items);
  }
  const body: EntityPage = { items };
  if (page.count !== undefined) body.count = page.count;
  const last = page.rows.at(-1);
  if (page.hasMore && last) {
    const values = compiled.orderColumns.map((order) => toCursorValue(last[order.field.name]));
    body.nextPageLink = buildNextPageLink(
      ctx.url,
      query.top,
      await encodeSkipToken(cursorContext, values, ctx.platform.config.pageTokenSecret),
    );
  }
  return jsonResponse(buildEntitySchemas(store.spec).page, body);
}
