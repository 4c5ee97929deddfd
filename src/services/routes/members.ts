/** A route's members (locations, equipment items) and tools: their tables, reads and reference lookups. */
import { and, eq, inArray } from 'drizzle-orm';
import { chunkKeys, requireColumn } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import { requireTenantReferenceStore } from '../../resources/reference/tables';
import type { TenantReferenceStore } from '../../resources/reference/tables';
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

export function toMemberRecord(row: Readonly<Record<string, unknown>>): MemberRecord {
  return {
    id: String(row.id),
    key: String(row.key),
    description: String(row.description ?? ''),
    // Tools have no company.
    company: row.company === undefined || row.company === null ? null : String(row.company),
  };
}

function selectMembers(db: Database, scope: TenantScope, kind: MemberKind, routeIds: readonly string[]) {
  const { table: reference, common } = kind.reference;
  const table = kind.table;
  return db
    .select({ routeId: table.ownerId, id: common.id, key: common.key, description: descriptionColumn(kind.reference) })
    .from(table)
    .innerJoin(reference, and(eq(common.tenantKey, table.tenantKey), eq(common.orgKey, table.orgKey), eq(common.key, table.memberKey)))
    .where(and(eq(table.tenantKey, scope.tenantKey), eq(table.orgKey, scope.orgKey), inArray(table.ownerId, [...routeIds])))
    .orderBy(table.ownerId, table.memberKey);
}

type RouteMembers = Record<MemberKind['field'], MemberItem[]>;

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
