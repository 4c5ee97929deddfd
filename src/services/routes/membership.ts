/**
 * The eight membership operations (`/{routeKey}/locations/add`, `.../equipmentitems/removeById`, ...):
 * all-or-nothing (any unknown key or id fails the whole request), idempotent, members of the route's company.
 */
import { and, eq, sql } from 'drizzle-orm';
import { parseConstraintViolation } from '../../db/client';
import { runWrites } from '../../db/writes';
import { loadCustomDefinitions, validateCustomValues } from '../../entities/custom-attributes';
import type { CustomValues } from '../../entities/custom-attributes';
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
import { routes } from './table';
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

/** The route's version bump (and custom attribute values), written in the same batch as the member changes. */
function buildRouteTouch(ctx: ApiContext, route: RouteSummary, custom: CustomValues) {
  const stamp = buildAuditStamp(ctx);
  const merged = Object.keys(custom).length > 0 ? { customAttributes: mergeCustomColumn(route, custom) } : {};
  return ctx.db
    .update(routes)
    .set({ ...merged, version: sql`${routes.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by })
    .where(and(eq(routes.tenantKey, ctx.scope.tenantKey), eq(routes.orgKey, ctx.scope.orgKey), eq(routes.id, route.id)))
    .returning({ version: routes.version });
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
  try {
    const [touched] = await runWrites(db, [buildRouteTouch(ctx, route, custom), ...statements]);
    // A route deleted since it was read updates no row (its members went with it): removing them changed nothing.
    return emptyResponse(200, { etag: etagOf(touched[0]?.version ?? route.version + 1) });
  } catch (error) {
    // The route was deleted since it was read: its member rows cannot reference it any more.
    if (parseConstraintViolation(error) === 'foreignKey')
      throw recordNotFound(`Route '${route.routeKey}' of company '${route.company}'`, false);
    throw error;
  }
}
