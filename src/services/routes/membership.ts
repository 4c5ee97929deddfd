/**
 * The eight membership operations (`/{routeKey}/locations/add`, `.../equipmentitems/removeById`, ...):
 * all-or-nothing (any unknown key or id fails the whole request), idempotent, members of the route's company.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { readDatabase } from '../../db/client';
import { readCustomDefinitions, validateCustomValues } from '../../entities/custom-attributes';
import type { CustomValues } from '../../entities/custom-attributes';
import { scopeOf, stampOf } from '../../entities/handlers';
import { parseCustomColumn } from '../../entities/resource';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound, validationError } from '../../http/errors';
import type { FieldError } from '../../http/errors';
import { emptyResponse, etagOf } from '../../http/responses';
import { findRouteForMembership } from './find-route';
import type { RouteRow } from './find-route';
import { readMembershipBody } from './membership-body';
import { buildMemberDeletes, buildMemberInserts } from './member-writes';
import { readExistingMembers, readMemberRecords } from './members';
import type { MemberKind, MemberRecord } from './members';
import { routeColumns, routes } from './table';

export type MembershipAction = 'add' | 'remove';
export type MembershipBy = 'key' | 'id';

/** Every value must name an existing record of the kind; returns the records in request order. */
function requireRecords(
  kind: MemberKind,
  by: MembershipBy,
  values: readonly string[],
  paths: ReadonlyMap<string, string>,
  found: Map<string, MemberRecord>,
): MemberRecord[] {
  const errors: FieldError[] = values
    .filter((value) => !found.has(value))
    .map((value) => ({ path: paths.get(value) ?? 'value', message: `Unknown ${kind.referenceKind} ${by} '${value}'.` }));
  if (errors.length > 0) {
    throw new ApiError('UnknownReference', `Unknown reference(s): ${errors.map((error) => error.message).join(' ')}`, { errors });
  }
  return values.map((value) => found.get(value) as MemberRecord);
}

function requireSameCompany(
  kind: MemberKind,
  route: RouteRow,
  records: readonly MemberRecord[],
  pathOf: (record: MemberRecord) => string,
): void {
  const errors = records
    .filter((record) => record.company !== route.company)
    .map((record) => ({
      path: pathOf(record),
      message: `The ${kind.title} '${record.key}' belongs to company '${record.company ?? ''}', not to the route's company '${route.company}'.`,
    }));
  if (errors.length > 0) throw validationError(errors, `Members must belong to the route's company '${route.company}'.`);
}

async function checkCustom(ctx: ApiContext, custom: CustomValues): Promise<CustomValues> {
  if (Object.keys(custom).length === 0) return {};
  const definitions = await readCustomDefinitions(readDatabase(ctx.platform.db), scopeOf(ctx), 'routes');
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
function buildRouteTouch(ctx: ApiContext, route: RouteRow, custom: CustomValues, change: SQL) {
  const stamp = stampOf(ctx);
  const hasCustom = Object.keys(custom).length > 0;
  const merged = hasCustom ? { customAttributes: JSON.stringify({ ...parseCustomColumn(route.customAttributes), ...custom }) } : {};
  const scoped = and(eq(routeColumns.tenantKey, ctx.tenantKey), eq(routeColumns.orgKey, ctx.orgKey), eq(routeColumns.id, route.id));
  return readDatabase(ctx.platform.db)
    .update(routes)
    .set({ ...merged, version: sql`${routeColumns.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by })
    .where(hasCustom ? scoped : and(scoped, change))
    .returning({ version: routeColumns.version });
}

export async function changeMembership(ctx: ApiContext, kind: MemberKind, action: MembershipAction, by: MembershipBy): Promise<Response> {
  const body = readMembershipBody(await readJsonBody(ctx.request), by);
  const db = readDatabase(ctx.platform.db);
  const scope = scopeOf(ctx);
  const route = await findRouteForMembership(db, scope, ctx.params.routeKey ?? '', ctx.url.searchParams.get('companyKey'));
  const found = await readMemberRecords(db, scope, kind, by, body.values);
  const records = requireRecords(kind, by, body.values, body.paths, found);
  if (action === 'add' && kind.byCompany) {
    requireSameCompany(kind, route, records, (record) => body.paths.get(by === 'id' ? record.id : record.key) ?? 'value');
  }
  const custom = await checkCustom(ctx, body.custom);
  const keys = records.map((record) => record.key);
  const existing = await readExistingMembers(db, scope, kind, route.id, keys);
  const changed = keys.filter((key) => (action === 'add' ? !existing.has(key) : existing.has(key)));
  // Adding a member twice or removing a non-member changes nothing (not even the version).
  if (changed.length === 0 && Object.keys(custom).length === 0) return emptyResponse(200, { etag: etagOf(route.version) });
  const statements =
    action === 'add' ? buildMemberInserts(db, scope, kind, route.id, changed) : buildMemberDeletes(db, scope, kind, route.id, changed);
  const current = db.select({ version: routeColumns.version }).from(routes).where(eq(routeColumns.id, route.id));
  let results: unknown[];
  try {
    results = await db.batch([buildRouteTouch(ctx, route, custom, needsChange(kind, route.id, action, changed)), ...statements, current]);
  } catch (error) {
    // The route was deleted since it was read: its member rows cannot reference it any more.
    if (/FOREIGN KEY constraint failed/i.test(error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error))) {
      throw recordNotFound(`Route '${route.routeKey}' of company '${route.company}'`, false, 'routeKey');
    }
    throw error;
  }
  // Not touched: a concurrent identical request made the change first; the answer is the version after it.
  const version = ((results.at(-1) ?? []) as { version: number }[])[0]?.version;
  if (version === undefined) throw recordNotFound(`Route '${route.routeKey}' of company '${route.company}'`, false, 'routeKey');
  return emptyResponse(200, { etag: etagOf(version) });
}
