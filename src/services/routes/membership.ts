/**
 * The eight membership operations (`/{routeKey}/locations/add`, `.../equipmentitems/removeById`, ...):
 * all-or-nothing (any unknown key or id fails the whole request), idempotent, members of the route's company.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { parseConstraintViolation, scopeCondition } from '../../db/client';
import { runWrites } from '../../db/writes';
import { loadCustomDefinitions, validateCustomValues } from '../../entities/custom-attributes';
import type { CustomValues } from '../../entities/custom-attributes';
import { buildUpdatedEvent } from '../../entities/events';
import { buildAuditStamp, mergeCustomColumn } from '../../entities/handlers';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { errorOfFields, recordNotFound, validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { emptyResponse, etagOf } from '../../http/responses';
import { findRouteForMembership } from './find-route';
import type { RouteSummary } from './find-route';
import { buildMemberDeletes, buildMemberInserts } from './member-writes';
import { findExistingMembers, findMemberRecords } from './members';
import type { MemberKind, MemberRecord } from './members';
import { parseMembershipBody } from './membership-body';
import type { MembershipBy } from './membership-body';
import { routes, routeStore } from './table';
import { message } from '../../messages/catalogue';

export type MembershipAction = 'add' | 'remove';

/** Every value must name an existing record of the kind; returns the records in request order. */
function requireRecords(
  kind: MemberKind,
  by: MembershipBy,
  values: readonly string[],
  paths: ReadonlyMap<string, string>,
  found: Map<string, MemberRecord>,
): MemberRecord[] {
  const records: MemberRecord[] = [];
  const errors: FieldError[] = [];
  for (const value of values) {
    const record = found.get(value);
    if (record) records.push(record);
    else
      errors.push({ path: paths.get(value) ?? 'value', message: message('unknownMember', { kind: kind.reference.spec.kind, by, value }) });
  }
  if (errors.length > 0) throw errorOfFields('UnknownReference', errors);
  return records;
}

function requireSameCompany(
  kind: MemberKind,
  route: RouteSummary,
  records: readonly MemberRecord[],
  pathOf: (record: MemberRecord) => string,
): void {
  const errors = records
    .filter((record) => record.company !== route.company)
    .map((record) => ({
      path: pathOf(record),
      message: message('memberOfOtherCompany', {
        kind: kind.title,
        key: record.key,
        company: record.company ?? '',
        routeCompany: route.company,
      }),
    }));
  if (errors.length > 0) throw validationError(errors);
}

async function checkCustom(ctx: ApiContext, custom: CustomValues): Promise<CustomValues> {
  if (Object.keys(custom).length === 0) return {};
  const definitions = await loadCustomDefinitions(ctx.db, ctx.scope, 'routes');
  const { values, errors } = validateCustomValues(custom, definitions, 'update');
  if (errors.length > 0) throw validationError(errors.map((error) => ({ ...error, path: `customAttributes.${error.path}` })));
  return values;
}

/**
 * True, at the time the statement runs, while one of `keys` still needs the change (not yet a member for `add`,
 * still a member for `remove`). The keys go as one JSON parameter, however many there are.
 */
function needsChange(kind: MemberKind, routeId: string, action: MembershipAction, keys: readonly string[]): SQL {
  const table = kind.table;
  const member = sql`select 1 from ${table} where ${table.routeId} = ${routeId} and ${table.memberKey} = k.value`;
  return action === 'add'
    ? sql`exists (select 1 from json_each(${JSON.stringify(keys)}) k where not exists (${member}))`
    : sql`exists (select 1 from json_each(${JSON.stringify(keys)}) k where exists (${member}))`;
}

/**
 * The route's version bump (and custom attribute values), first in the batch of the member changes, made only while
 * `change` holds: of identical concurrent requests only the one that changes something bumps the version.
 */
function buildRouteTouch(
  ctx: ApiContext,
  route: RouteSummary,
  custom: CustomValues,
  change: SQL,
  members: Readonly<Record<string, unknown>>,
) {
  const stamp = buildAuditStamp(ctx);
  const hasCustom = Object.keys(custom).length > 0;
  const merged = hasCustom ? { customAttributes: mergeCustomColumn(route, custom) } : {};
  const scoped = and(scopeCondition(routes, ctx.scope), eq(routes.id, route.id));
  const condition = hasCustom ? scoped : and(scoped, change);
  // The route's `updated` event, written exactly when the touch is (same condition, same transaction).
  const changes = { members, ...(hasCustom ? { attributes: ['customAttributes'] } : {}) };
  return [
    buildUpdatedEvent(ctx.db, routeStore, ctx.scope, condition, stamp, { changes }),
    ctx.db
      .update(routes)
      .set({ ...merged, version: sql`${routes.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by })
      .where(condition)
      .returning({ version: routes.version }),
  ] as const;
}

export async function handleMembershipChange(
  ctx: ApiContext,
  kind: MemberKind,
  action: MembershipAction,
  by: MembershipBy,
): Promise<Response> {
  const body = parseMembershipBody(await readJsonBody(ctx.request), by);
  const { db, scope } = ctx;
  const route = await findRouteForMembership(db, scope, ctx.params.routeKey ?? '', ctx.url.searchParams.get('companyKey'));
  const found = await findMemberRecords(db, scope, kind, by, body.values);
  const records = requireRecords(kind, by, body.values, body.paths, found);
  if (action === 'add' && kind.byCompany) {
    requireSameCompany(kind, route, records, (record) => body.paths.get(by === 'id' ? record.id : record.key) ?? 'value');
  }
  const custom = await checkCustom(ctx, body.custom);
  const keys = records.map((record) => record.key);
  const existing = await findExistingMembers(db, scope, kind, route.id, keys);
  const changed = keys.filter((key) => (action === 'add' ? !existing.has(key) : existing.has(key)));
  // Adding a member twice or removing a non-member changes nothing (not even the version).
  if (changed.length === 0 && Object.keys(custom).length === 0) return emptyResponse(200, { etag: etagOf(route.version) });
  const statements =
    action === 'add' ? buildMemberInserts(db, scope, kind, route.id, changed) : buildMemberDeletes(db, scope, kind, route.id, changed);
  // The route's version once touched (member changes leave it alone): the answer's ETag.
  const current = db
    .select({ version: routes.version })
    .from(routes)
    .where(and(scopeCondition(routes, scope), eq(routes.id, route.id)));
  let version: number | undefined;
  try {
    const members = { [kind.field]: { [action === 'add' ? 'added' : 'removed']: changed } };
    const [, , after] = await runWrites(db, [
      ...buildRouteTouch(ctx, route, custom, needsChange(kind, route.id, action, changed), members),
      current,
      ...statements,
    ]);
    // Not touched: a concurrent identical request made the change first; the answer is the version after it.
    version = after[0]?.version;
  } catch (error) {
    // The route was deleted since it was read: its member rows cannot reference it any more.
    if (parseConstraintViolation(error) === 'foreignKey')
      throw recordNotFound(`Route '${route.routeKey}' of company '${route.company}'`, false, 'routeKey');
    throw error;
  }
  if (version === undefined) throw recordNotFound(`Route '${route.routeKey}' of company '${route.company}'`, false, 'routeKey');
  return emptyResponse(200, { etag: etagOf(version) });
}
