/**
 * Upserts of reference data the routes service depends on: a location or equipment item in a route keeps the
 * route's company, and a brand model used by a route keeps the route's brand (else 400 ReferenceInUse).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { TenantScope } from '../../db/client';
import type { FieldError } from '../../http/errors';
import type { UpsertGuard } from '../../reference/routes';
import type { ReferenceInput } from '../../reference/validate';
import { chunkList, equipmentMembers, locationMembers } from './members';
import type { MemberKind } from './members';
import { routeColumns, routes } from './table';

interface Use {
  readonly key: string;
  readonly route: string;
  readonly value: string | null;
}

async function readUses(db: Database, scope: TenantScope, keys: readonly string[], kind: MemberKind | 'brandModels'): Promise<Use[]> {
  const queries = chunkList(keys).map((chunk) => {
    if (kind === 'brandModels') {
      return db
        .select({ key: routeColumns.brandModel, company: routeColumns.company, routeKey: routeColumns.routeKey, value: routeColumns.brand })
        .from(routes)
        .where(
          and(eq(routeColumns.tenantKey, scope.tenantKey), eq(routeColumns.orgKey, scope.orgKey), inArray(routeColumns.brandModel, chunk)),
        );
    }
    const table = kind.table;
    return db
      .select({ key: table.memberKey, company: routeColumns.company, routeKey: routeColumns.routeKey })
      .from(table)
      .innerJoin(routes, eq(routeColumns.id, table.routeId))
      .where(and(eq(table.tenantKey, scope.tenantKey), eq(table.orgKey, scope.orgKey), inArray(table.memberKey, chunk)));
  });
  const [first, ...rest] = queries;
  if (!first) return [];
  const results = await db.batch([first, ...rest]);
  return results.flatMap((rows) =>
    (rows as { key: unknown; company: unknown; routeKey: unknown; value?: unknown }[]).map((row) => {
      // Members are checked against the route's company (selected once), brand models against its brand.
      const value = kind === 'brandModels' ? row.value : row.company;
      return {
        key: String(row.key),
        route: `${String(row.company)}/${String(row.routeKey)}`,
        value: value === null || value === undefined ? null : String(value),
      };
    }),
  );
}

const GUARDED: Readonly<Record<string, { source: MemberKind | 'brandModels'; field: string; title: string }>> = {
  locations: { source: locationMembers, field: 'company', title: 'location' },
  equipmentItems: { source: equipmentMembers, field: 'company', title: 'equipment item' },
  brandModels: { source: 'brandModels', field: 'brand', title: 'brand model' },
};

export const guardRouteReferences: UpsertGuard = async (db, scope, kind, records: readonly ReferenceInput[]) => {
  const rule = GUARDED[kind];
  if (!rule || records.length === 0) return [];
  const uses = await readUses(
    db,
    scope,
    records.map((record) => record.key),
    rule.source,
  );
  const byKey = new Map(records.map((record, index) => [record.key, { record, index }]));
  const problems: FieldError[] = [];
  for (const use of uses) {
    const entry = byKey.get(use.key);
    if (!entry || entry.record[rule.field] === use.value) continue;
    problems.push({
      path: `[${entry.index}].${rule.field}`,
      message: `The ${rule.title} '${use.key}' is used by route ${use.route} with ${rule.field} '${use.value ?? ''}'.`,
    });
  }
  return problems;
};
