/**
 * A membership change in an atomic group of `$batch` (src/tenant/atomic-group.ts): what the batch of
 * membership-batch.ts will answer, predicted from the routes, reference records and members as the group's earlier
 * writes leave them (the overlay: routes and reference records by id; members as `{routeId, memberKey}` images under
 * the member table's name and `<routeId>:<memberKey>`, null when the group removed one). The route must be at the
 * version read before the change and at the predicted one after it, so a concurrent change aborts the group.
 */
import { and, eq, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import { recordAtVersion } from '../../resources/entities/group-reads';
import { mergeCustomValues } from '../../resources/entities/custom-attributes';
import type { CustomValues } from '../../resources/entities/custom-attributes';
import { applyGroupToReferences } from '../../resources/reference/group-records';
import type { ReferenceRecord } from '../../resources/reference/spec';
import type { GroupOverlay } from '../../tenant/atomic-group';
import type { GroupContext, GroupPrediction } from '../../tenant/unit-of-work';
import type { RouteSummary } from './find-route';
import { buildRecordFields } from './membership-batch';
import type { MembershipTarget } from './membership-batch';
import { isMemberInGroup, memberId, memberTableName } from './group-members';
import { routes, routeStore } from './table';

/** A record named, as the batch's statement [1] answers it. */
type NamedRecord = { readonly id: string; readonly key: string; readonly description: unknown; readonly company: string | null };

/** What the membership batch answers (membership-write.ts): the routes with the routeKey, the records named, the bump. */
export interface MembershipRows {
  readonly candidates: readonly RouteSummary[];
  readonly records: readonly NamedRecord[];
  readonly touched: readonly { readonly version: number }[];
}

type Image = Readonly<Record<string, unknown>>;

/** How many routes the batch reads for an ambiguous routeKey (membership-batch.ts). */
const AMBIGUOUS_LIMIT = 20;

/** The routes' reads of the batch (full rows: an after-image of a bumped route is the whole record). */
function readStored(context: GroupContext, target: MembershipTarget) {
  const { db, scope } = context;
  const { kind, by } = target;
  const reference = kind.reference;
  const routeWhere = and(
    scopeCondition(routes, scope),
    eq(routes.routeKey, target.routeKey),
    ...(target.companyKey === null ? [] : [eq(routes.company, target.companyKey)]),
  );
  const named = and(
    scopeCondition(reference.common, scope),
    sql`${reference.common[by]} IN (SELECT value FROM json_each(${JSON.stringify(target.values)}))`,
  );
  const table = kind.table;
  return db.batch([
    db.select().from(routes).where(routeWhere).limit(AMBIGUOUS_LIMIT),
    db.select(buildRecordFields(kind)).from(reference.table).where(named),
    db
      .select({ routeId: table.ownerId, memberKey: table.memberKey })
      .from(table)
      .where(
        and(
          scopeCondition(table, scope),
          sql`${table.ownerId} IN (SELECT ${routes.id} FROM ${routes} WHERE ${routeWhere})`,
          sql`${table.memberKey} IN (SELECT ${reference.common.key} FROM ${reference.table} WHERE ${named})`,
        ),
      ),
  ]);
}

/** The routes with the routeKey (and company) as the group leaves them. */
function applyGroupToRoutes(overlay: GroupOverlay, target: MembershipTarget, stored: readonly Image[]): Image[] {
  const matches = (image: Image) =>
    image.routeKey === target.routeKey && (target.companyKey === null || image.company === target.companyKey);
  const seen = new Set<string>();
  const found: Image[] = [];
  for (const row of stored) {
    const id = String(row.id);
    seen.add(id);
    const image = overlay.read(routeStore.spec.table, id);
    if (image === null) continue;
    if (image === undefined) found.push(row);
    else if (matches(image)) found.push(image);
  }
  for (const [id, image] of overlay.list(routeStore.spec.table)) if (image !== null && !seen.has(id) && matches(image)) found.push(image);
  return found.slice(0, AMBIGUOUS_LIMIT);
}

function toSummary(image: Image): RouteSummary {
  const summary = Object.fromEntries(Object.keys(ROUTE_SUMMARY_FIELDS).map((name) => [name, image[name] ?? null]));
  // An after-image of a route holds every field of the route's row (a read, or a create's values).
  return summary as unknown as RouteSummary;
}

const ROUTE_SUMMARY_FIELDS = {
  id: 1,
  company: 1,
  routeKey: 1,
  description: 1,
  brand: 1,
  brandModel: 1,
  responsible: 1,
  customAttributes: 1,
  version: 1,
} as const;

/** The change the checks allow (one route, every record found, members of its company): what it changes, if anything. */
function predictChange(
  context: GroupContext,
  target: MembershipTarget,
  route: Image,
  records: readonly ReferenceRecord[],
  members: ReadonlySet<string>,
) {
  const routeId = String(route.id);
  const isMember = (key: string) => isMemberInGroup(context.overlay, target.kind, routeId, key, members.has(key));
  const changing = records.filter((record) => (target.action === 'add' ? !isMember(record.key) : isMember(record.key)));
  return { routeId, changing };
}

/**
 * The membership batch's answer in an atomic group. When the checks of the handler will refuse (no or several
 * routes, a record missing, a member of another company), nothing is recorded: the request fails, and the group.
 */
export async function predictMembership(
  context: GroupContext,
  target: MembershipTarget,
  custom: CustomValues,
): Promise<GroupPrediction<MembershipRows>> {
  const [storedRoutes, storedRecords, storedMembers] = await readStored(context, target);
  const candidates = applyGroupToRoutes(context.overlay, target, storedRoutes);
  const reference = target.kind.reference;
  const wanted = new Set(target.values);
  const stored = storedRecords.map((row): ReferenceRecord => ({ ...row, id: String(row.id), key: String(row.key) }));
  const named = applyGroupToReferences(context.overlay, reference, stored, (record) =>
    wanted.has(target.by === 'id' ? record.id : record.key),
  );
  const records = named.map((record) => ({
    id: record.id,
    key: record.key,
    description: record.description ?? null,
    company: record.company === undefined || record.company === null ? null : String(record.company),
  }));
  const rows = { candidates: candidates.map(toSummary), records, touched: [] };
  const [route] = candidates;
  const companies = target.action === 'add' && target.kind.byCompany;
  const allowed =
    route !== undefined &&
    candidates.length === 1 &&
    records.length === target.values.length &&
    (!companies || records.every((record) => record.company === route.company));
  if (!route || !allowed) return { result: rows };
  const members = new Set(storedMembers.filter((row) => row.routeId === route.id).map((row) => row.memberKey));
  const { routeId, changing } = predictChange(context, target, route, named, members);
  const version = Number(route.version);
  const before = [recordAtVersion(routeStore, context.scope, routeId, version)];
  if (changing.length === 0 && Object.keys(custom).length === 0) return { result: rows, before };
  const { stamp } = context;
  const customAttributes =
    Object.keys(custom).length > 0
      ? mergeCustomValues(typeof route.customAttributes === 'string' ? route.customAttributes : null, custom)
      : route.customAttributes;
  context.overlay.write(routeStore.spec.table, routeId, {
    ...route,
    customAttributes,
    version: version + 1,
    modifiedOn: stamp.on,
    modifiedBy: stamp.by,
  });
  for (const record of changing) {
    const image = target.action === 'add' ? { routeId, memberKey: record.key } : null;
    context.overlay.write(memberTableName(target.kind), memberId(routeId, record.key), image);
  }
  const after = [recordAtVersion(routeStore, context.scope, routeId, version + 1)];
  return { result: { ...rows, touched: [{ version: version + 1 }] }, before, after };
}
