/**
 * Upserts of reference data the routes service depends on: a location or equipment item in a route keeps the
 * route's company, and a brand model used by a route keeps the route's brand (else 400 ReferenceInUse).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { chunkKeys } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import type { FieldError } from '../../errors/api-error';
import type { UpsertGuard } from '../../resources/reference/routes';
import type { GroupOverlay } from '../../tenant/atomic-group';
import { applyGroupToRouteRows, listGroupMemberRoutes } from './group-members';
import { equipmentMembers, locationMembers } from './members';
import type { MemberKind } from './members';
import { routes } from './table';
import { message } from '../../messages/catalogue';

/** A route that uses a reference key, and the value the rule compares (the route's company or brand). */
interface Use {
  readonly key: string;
  readonly route: string;
  readonly value: string | null;
}

/** Routes whose members include `keys` of the kind, with the route's company (in an atomic group, as it leaves them). */
async function findMemberUses(
  db: Database,
  scope: TenantScope,
  kind: MemberKind,
  keys: readonly string[],
  overlay?: GroupOverlay,
): Promise<Use[]> {
  const table = kind.table;
  const queries = chunkKeys(keys).map((chunk) =>
    db
      .select({ key: table.memberKey, routeId: table.ownerId, company: routes.company, routeKey: routes.routeKey })
      .from(table)
      .innerJoin(routes, eq(routes.id, table.ownerId))
      .where(and(eq(table.tenantKey, scope.tenantKey), eq(table.orgKey, scope.orgKey), inArray(table.memberKey, chunk))),
  );
  const results = await runReads(db, queries);
  const stored = results.flat();
  if (!overlay) return stored.map((row) => ({ key: row.key, route: `${row.company}/${row.routeKey}`, value: row.company }));
  return listGroupMemberRoutes(overlay, kind, keys, stored).map(({ key, route }) => ({
    key,
    route: `${String(route.company)}/${String(route.routeKey)}`,
    value: route.company === null || route.company === undefined ? null : String(route.company),
  }));
}

/** Routes that use the brand models `keys`, with the route's brand (in an atomic group, as it leaves them). */
async function findBrandModelUses(db: Database, scope: TenantScope, keys: readonly string[], overlay?: GroupOverlay): Promise<Use[]> {
  const queries = chunkKeys(keys).map((chunk) =>
    db
      .select({ id: routes.id, key: routes.brandModel, company: routes.company, routeKey: routes.routeKey, value: routes.brand })
      .from(routes)
      .where(and(eq(routes.tenantKey, scope.tenantKey), eq(routes.orgKey, scope.orgKey), inArray(routes.brandModel, chunk))),
  );
  const results = await runReads(db, queries);
  const stored = results.flat().map((row) => ({ ...row, brandModel: row.key, brand: row.value }));
  const found = overlay ? applyGroupToRouteRows(overlay, stored, (route) => keys.includes(String(route.brandModel))) : stored;
  return found.map((row) => ({
    key: String(row.brandModel ?? ''),
    route: `${String(row.company)}/${String(row.routeKey)}`,
    value: row.brand === null || row.brand === undefined ? null : String(row.brand),
  }));
}

interface GuardRule {
  readonly field: string;
  readonly title: string;
  findUses(db: Database, scope: TenantScope, keys: readonly string[], overlay?: GroupOverlay): Promise<Use[]>;
}

const GUARDED: Readonly<Record<string, GuardRule>> = {
  locations: {
    field: 'company',
    title: 'location',
    findUses: (db, scope, keys, overlay) => findMemberUses(db, scope, locationMembers, keys, overlay),
  },
  equipmentItems: {
    field: 'company',
    title: 'equipment item',
    findUses: (db, scope, keys, overlay) => findMemberUses(db, scope, equipmentMembers, keys, overlay),
  },
  brandModels: { field: 'brand', title: 'brand model', findUses: findBrandModelUses },
};

export const guardRouteReferences: UpsertGuard = async (db, scope, kind, records, overlay) => {
  const rule = GUARDED[kind];
  if (!rule || records.length === 0) return [];
  const uses = await rule.findUses(
    db,
    scope,
    records.map((record) => record.key),
    overlay,
  );
  const byKey = new Map(records.map((record, index) => [record.key, { record, index }]));
  const problems: FieldError[] = [];
  for (const use of uses) {
    const entry = byKey.get(use.key);
    if (!entry || entry.record[rule.field] === use.value) continue;
    problems.push({
      path: `[${entry.index}].${rule.field}`,
      message: message('referenceRule', { title: rule.title, key: use.key, route: use.route, field: rule.field, value: use.value ?? '' }),
    });
  }
  return problems;
};
