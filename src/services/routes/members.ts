/** A route's members (locations, equipment items) and tools: their tables, reads and reference lookups. */
import { and, eq, inArray } from 'drizzle-orm';
import { chunkKeys, requireColumn } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import { requireTenantReferenceStore } from '../../reference/tables';
import type { TenantReferenceStore } from '../../reference/tables';
import { routeEquipmentItems, routeLocations, routeTools } from './table';
import type { MemberTable } from './table';

export interface MemberKind {
  /** Field of the route resource (`locations`). */
  readonly field: 'locations' | 'equipmentItems' | 'tools';
  /** Reference data kind of the members, and its table. */
  readonly reference: TenantReferenceStore;
  /** Human name of one member (`location`). */
  readonly title: string;
  readonly table: MemberTable;
  /** Members must belong to the route's company. */
  readonly byCompany: boolean;
}

export const locationMembers: MemberKind = {
  field: 'locations',
  reference: requireTenantReferenceStore('locations'),
  title: 'location',
  table: routeLocations,
  byCompany: true,
};
export const equipmentMembers: MemberKind = {
  field: 'equipmentItems',
  reference: requireTenantReferenceStore('equipmentItems'),
  title: 'equipment item',
  table: routeEquipmentItems,
  byCompany: true,
};
export const toolMembers: MemberKind = {
  field: 'tools',
  reference: requireTenantReferenceStore('tools'),
  title: 'tool',
  table: routeTools,
  byCompany: false,
};

export const MEMBER_KINDS: readonly MemberKind[] = [locationMembers, equipmentMembers, toolMembers];

/** A member as reads list it. */
export interface MemberItem {
  readonly id: string;
  readonly key: string;
  readonly description: string;
}

/** The resolved reference record of a member. */
export interface MemberRecord extends MemberItem {
  readonly company: string | null;
}

function descriptionColumn(reference: TenantReferenceStore) {
  return requireColumn(reference.columns, reference.spec.table, 'description');
}

function toMemberRecord(row: Readonly<Record<string, unknown>>): MemberRecord {
  return {
    id: String(row.id),
    key: String(row.key),
    description: String(row.description ?? ''),
    // Tools have no company.
    company: row.company === undefined || row.company === null ? null : String(row.company),
  };
}

/** Reference records of one member kind by `id` or `key`, scoped; chunked, one batch. */
export async function findMemberRecords(
  db: Database,
  scope: TenantScope,
  kind: MemberKind,
  by: 'id' | 'key',
  values: readonly string[],
): Promise<Map<string, MemberRecord>> {
  const { table, common, columns } = kind.reference;
  const queries = chunkKeys([...new Set(values)]).map((chunk) =>
    db
      .select(columns)
      .from(table)
      .where(and(eq(common.tenantKey, scope.tenantKey), eq(common.orgKey, scope.orgKey), inArray(common[by], chunk))),
  );
  const found = new Map<string, MemberRecord>();
  for (const rows of await runReads(db, queries)) {
    for (const row of rows) {
      const record = toMemberRecord(row);
      found.set(by === 'id' ? record.id : record.key, record);
    }
  }
  return found;
}

function selectMembers(db: Database, scope: TenantScope, kind: MemberKind, routeIds: readonly string[]) {
  const { table: reference, common } = kind.reference;
  const table = kind.table;
  return db
    .select({ routeId: table.routeId, id: common.id, key: common.key, description: descriptionColumn(kind.reference) })
    .from(table)
    .innerJoin(reference, and(eq(common.tenantKey, table.tenantKey), eq(common.orgKey, table.orgKey), eq(common.key, table.memberKey)))
    .where(and(eq(table.tenantKey, scope.tenantKey), eq(table.orgKey, scope.orgKey), inArray(table.routeId, [...routeIds])))
    .orderBy(table.routeId, table.memberKey);
}

export type RouteMembers = Record<MemberKind['field'], MemberItem[]>;

/** Every route's locations, equipment items and tools as `{id, key, description}`, ordered by key; one batch. */
export async function listRouteMembers(db: Database, scope: TenantScope, routeIds: readonly string[]): Promise<Map<string, RouteMembers>> {
  const members = new Map<string, RouteMembers>(routeIds.map((id) => [id, { locations: [], equipmentItems: [], tools: [] }]));
  const queries = MEMBER_KINDS.flatMap((kind) =>
    chunkKeys(routeIds).map((chunk) => ({ kind, query: selectMembers(db, scope, kind, chunk) })),
  );
  const results = await runReads(
    db,
    queries.map((item) => item.query),
  );
  results.forEach((rows, index) => {
    const kind = queries[index]?.kind;
    if (!kind) return;
    for (const row of rows) {
      members.get(row.routeId)?.[kind.field].push({ id: row.id, key: row.key, description: String(row.description ?? '') });
    }
  });
  return members;
}

/** The keys of `keys` that are already members of the route. */
export async function findExistingMembers(
  db: Database,
  scope: TenantScope,
  kind: MemberKind,
  routeId: string,
  keys: readonly string[],
): Promise<Set<string>> {
  const table = kind.table;
  const queries = chunkKeys(keys).map((chunk) =>
    db
      .select({ key: table.memberKey })
      .from(table)
      .where(
        and(
          eq(table.tenantKey, scope.tenantKey),
          eq(table.orgKey, scope.orgKey),
          eq(table.routeId, routeId),
          inArray(table.memberKey, chunk),
        ),
      ),
  );
  const results = await runReads(db, queries);
  return new Set(results.flatMap((rows) => rows.map((row) => row.key)));
}
