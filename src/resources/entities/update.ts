/**
 * The generic PATCH (merge) and PUT (replace) of one record: every field, `isActive` and custom attribute value of the
 * body in one update statement (one D1 batch), validated as the attribute PUTs validate each one, with `If-Match`,
 * one `updated` event listing the attributes that changed, and the record answered as a read answers it.
 */
import { writeUnderRules } from '../../db/rules';
import { ApiError, recordNotFound, validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import type { Answer } from '../../http/answer';
import { readJsonBody } from '../../http/body';
import type { JsonBodyOptions } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { emptyResponse, etagOf, jsonResponse } from '../../http/responses';
import { commitAlone } from '../../tenant/unit-of-work';
import { checkReferencesExist } from '../reference/store';
import { buildCustomValueUpdate, loadCustomDefinitions, mergeCustomValues, validateCustomValues } from './custom-attributes';
import type { CustomValues } from './custom-attributes';
import { buildEntitySchemas } from './doc-schemas';
import type { Decorate } from './handlers';
import { listRecordParams } from './handlers';
import { parseIfMatch } from './lookup';
import type { RecordTarget } from './record-updates';
import { openEntityRepository } from './repository';
import type { EntityRepository } from './repository';
import { toResource } from './resource';
import type { Resource } from './resource';
import type { EntitySpec, Values } from './spec';
import { compareReadOnly, compareRelated } from './stored-compare';
import type { EntityRecord, EntityStore, RecordLookup } from './store';
import { listReadOnlyFields, parseUpdateBody } from './update-body';
import type { UpdateInput, UpdateMode } from './update-body';
import { collectReferenceUses } from './validate';

/** A service's rules on the record as an update leaves it (`values`: what the update sets); answers every problem. */
export type CheckUpdate = (ctx: ApiContext, record: EntityRecord, values: Values) => Promise<FieldError[]>;

interface UpdateOptions {
  readonly mode: UpdateMode;
  /** Adds related data (route members, rate lines) to the answer, as reads do. */
  readonly decorate?: Decorate | undefined;
  /** The properties `decorate` adds: a body may send them back as read, never change them. */
  readonly related: readonly string[];
  readonly checkUpdate?: CheckUpdate | undefined;
  readonly body?: JsonBodyOptions | undefined;
}

type RecordAnswer = Answer<200, Resource> | Answer<204, null>;

/** `Prefer: return=minimal` (among other preferences, in any case). */
function prefersMinimal(request: Request): boolean {
  const header = request.headers.get('prefer') ?? '';
  return header.split(',').some((preference) => preference.trim().toLowerCase() === 'return=minimal');
}

/** The record as a read answers it (with its related lists), with its ETag; 204 with the ETag for `return=minimal`. */
async function answerRecord(ctx: ApiContext, store: EntityStore, record: EntityRecord, options: UpdateOptions): Promise<RecordAnswer> {
  const etag = etagOf(record.version);
  if (prefersMinimal(ctx.request)) return emptyResponse(204, { etag, 'preference-applied': 'return=minimal' });
  const resource = toResource(store.spec, record);
  await options.decorate?.(ctx, [record], [resource]);
  const answer: Answer<200, Resource> = jsonResponse(buildEntitySchemas(store.spec).resource, resource, { headers: { etag } });
  return answer;
}

/** The body's problems, with those found comparing it with the record and the custom attribute definitions. */
async function checkBody(ctx: ApiContext, store: EntityStore, record: EntityRecord, input: UpdateInput, options: UpdateOptions) {
  const { spec } = store;
  const errors = [...input.errors, ...compareReadOnly(input.readOnly, listReadOnlyFields(spec), toResource(spec, record))];
  if (Object.keys(input.related).length > 0) {
    const resource = toResource(spec, record);
    await options.decorate?.(ctx, [record], [resource]);
    errors.push(...compareRelated(input.related, resource));
  }
  let custom: CustomValues = {};
  if (spec.customAttributes && (Object.keys(input.custom).length > 0 || options.mode === 'replace')) {
    const definitions = await loadCustomDefinitions(ctx.tenant, spec.name, ctx.tenant.group?.overlay);
    const checked = validateCustomValues(input.custom, definitions, options.mode === 'replace' ? 'create' : 'update');
    errors.push(...checked.errors);
    custom = checked.values;
  }
  if (errors.length > 0) throw validationError(errors);
  return custom;
}

/** What the update writes: the values, and the custom attribute values merged into the stored ones (PATCH) or as given (PUT). */
function buildUpdate(store: EntityStore, input: UpdateInput, custom: CustomValues, mode: UpdateMode) {
  const set: Record<string, unknown> = { ...input.values };
  let compute: RecordTarget['compute'];
  if (store.spec.customAttributes && mode === 'replace') set.customAttributes = JSON.stringify(custom);
  else if (Object.keys(custom).length > 0) {
    // Merged into the stored JSON by the UPDATE itself (as the custom attribute PUT does); in an atomic group, from
    // the record as the group sees it.
    set.customAttributes = buildCustomValueUpdate(store.common.customAttributes, custom);
    compute = (current) => ({ customAttributes: mergeCustomValues(current.customAttributes, custom) });
  }
  return { set, compute };
}

/** An update that changed nothing: missing (404), a stale `If-Match` (412), or nothing to change (the record as it is). */
async function answerUnchanged(
  ctx: ApiContext,
  repository: EntityRepository<EntitySpec>,
  lookup: RecordLookup,
  expected: number | undefined,
  options: UpdateOptions,
): Promise<RecordAnswer> {
  const record = await repository.find(lookup);
  if (!record) throw recordNotFound(repository.store.spec.title, true, listRecordParams(ctx));
  if (expected !== undefined && record.version !== expected) {
    throw new ApiError('PreconditionFailed', `If-Match does not match the current version ${record.version}.`, {
      headers: { etag: etagOf(record.version) },
    });
  }
  return answerRecord(ctx, repository.store, record, options);
}

/** PATCH or PUT of the record `lookup` names. */
export async function handleRecordUpdate(
  ctx: ApiContext,
  store: EntityStore,
  lookup: RecordLookup,
  options: UpdateOptions,
): Promise<RecordAnswer> {
  const { spec } = store;
  const body = await readJsonBody(ctx.request, options.body);
  const input = parseUpdateBody(spec, body, options.mode, options.related);
  const repository = openEntityRepository(ctx.tenant, store);
  const record = await repository.find(lookup);
  if (!record) throw recordNotFound(spec.title, true, listRecordParams(ctx));
  const custom = await checkBody(ctx, store, record, input, options);
  const byId: RecordLookup = { by: 'id', id: record.id };
  const uses = collectReferenceUses(spec, input.values);
  // Run again (`fresh`) on the state that refused the write, to word a rule the database holds.
  const check = async (fresh = true) => {
    if (uses.length > 0) await checkReferencesExist(ctx.tenant, uses, ctx.tenant.group?.overlay);
    if (!options.checkUpdate) return;
    const current = fresh ? ((await repository.find(byId)) ?? record) : record;
    const errors = await options.checkUpdate(ctx, current, input.values);
    if (errors.length > 0) throw validationError(errors);
  };
  await check(false);
  const expected = parseIfMatch(ctx.request);
  const { set, compute } = buildUpdate(store, input, custom, options.mode);
  if (Object.keys(set).length === 0) return answerUnchanged(ctx, repository, byId, expected, options);
  const target: RecordTarget = {
    lookup: byId,
    expectedVersion: expected,
    recheck: check,
    listChanged: true,
    ...(compute ? { compute } : {}),
  };
  // The database checks the same rules in the update's batch: a concurrent write that broke one is answered as above.
  const version = await writeUnderRules(
    () => commitAlone(ctx.tenant, (batch) => repository.stageUpdate(batch, target, set)),
    () => check(),
    Object.keys(input.values),
  );
  if (version === undefined) return answerUnchanged(ctx, repository, byId, expected, options);
  if (prefersMinimal(ctx.request)) return emptyResponse(204, { etag: etagOf(version), 'preference-applied': 'return=minimal' });
  const updated = await repository.find(byId);
  if (!updated) throw recordNotFound(spec.title, true, listRecordParams(ctx));
  return answerRecord(ctx, store, updated, options);
}
