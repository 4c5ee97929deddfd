/**
 * Upserts of reference data the routes service depends on: a location or equipment item in a route keeps the
 * route's company, and a brand model used by a route keeps the route's brand (else 400 ReferenceInUse).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { chunkKeys } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import type { FieldError } from '../../errors/api-error';
import type { UpsertGuard } from '../../reference/routes';
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

/** Routes whose members include `keys` of the kind, with the route's company. */
async function findMemberUses(db: Database, scope: TenantScope, kind: MemberKind, keys: readonly string[]): Promise<Use[]> {
  const table = kind.table;
  const queries = chunkKeys(keys).map((chunk) =>
    db
      .select({ key: table.memberKey, company: routes.company, routeKey: routes.routeKey })
      .from(table)
      .innerJoin(routes, eq(routes.id, table.routeId))
      .where(and(eq(table.tenantKey, scope.tenantKey), eq(table.orgKey, scope.orgKey), inArray(table.memberKey, chunk))),
  );
  const results = await runReads(db, queries);
  return results.flat().map((row) => ({ key: row.key, route: `${row.company}/${row.routeKey}`, value: row.company }));
}

/** Routes that use the brand models `keys`, with the route's brand. */
async function findBrandModelUses(db: Database, scope: TenantScope, keys: readonly string[]): Promise<Use[]> {
  const queries = chunkKeys(keys).map((chunk) =>
    db
      .select({ key: routes.brandModel, company: routes.company, routeKey: routes.routeKey, value: routes.brand })
      .from(routes)
      .where(and(eq(routes.tenantKey, scope.tenantKey), eq(routes.orgKey, scope.orgKey), inArray(routes.brandModel, chunk))),
  );
  const results = await runReads(db, queries);
  return results.flat().map((row) => ({ key: row.key ?? '', route: `${row.company}/${row.routeKey}`, value: row.value }));
}

interface GuardRule {
  readonly field: string;
  readonly title: string;
  findUses(db: Database, scope: TenantScope, keys: readonly string[]): Promise<Use[]>;
}

const GUARDED: Readonly<Record<string, GuardRule>> = {
  locations: { field: 'company', title: 'location', findUses: (db, scope, keys) => findMemberUses(db, scope, locationMembers, keys) },
  equipmentItems: {
    field: 'company',
    title: 'equipment item',
    findUses: (db, scope, keys) => findMemberUses(db, scope, equipmentMembers, keys),
  },
  brandModels: { field: 'brand', title: 'brand model', findUses: findBrandModelUses },
};

export const guardRouteReferences: UpsertGuard = async (db, scope, kind, records) => {
  const rule = GUARDED[kind];
  if (!rule || records.length === 0) return [];
  const uses = await rule.findUses(
    db,
    scope,
    records.map((record) => record.key),
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
