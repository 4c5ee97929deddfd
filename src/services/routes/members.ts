/** A route's members (locations, equipment items) and tools: their tables, reads and reference lookups. */
import { and, eq, inArray } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { readReferenceTable } from '../../reference/tables';
import { routeEquipmentItems, routeLocations, routeTools } from './table';
import type { MemberTable } from './table';

export interface MemberKind {
  /** Field of the route resource (`locations`). */
  readonly field: 'locations' | 'equipmentItems' | 'tools';
  /** Reference data kind of the members. */
  readonly referenceKind: string;
  /** Human name of one member (`location`). */
  readonly title: string;
  readonly table: MemberTable;
  /** Members must belong to the route's company. */
  readonly byCompany: boolean;
}

export const locationMembers: MemberKind = {
  field: 'locations',
  referenceKind: 'locations',
  title: 'location',
  table: routeLocations,
  byCompany: true,
};
export const equipmentMembers: MemberKind = {
  field: 'equipmentItems',
  referenceKind: 'equipmentItems',
  title: 'equipment item',
  table: routeEquipmentItems,
  byCompany: true,
};
export const toolMembers: MemberKind = { field: 'tools', referenceKind: 'tools', title: 'tool', table: routeTools, byCompany: false };

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

/** Keys and ids stay under D1's 100 bound parameters (two go to tenant and org, a few to the route). */
export const KEY_CHUNK = 90;

export function chunkList<T>(items: readonly T[], size = KEY_CHUNK): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

export function referenceColumns(kind: string): Record<string, SQLiteColumn> {
  return readReferenceTable(kind) as unknown as Record<string, SQLiteColumn>;
}

function column(columns: Record<string, SQLiteColumn>, name: string): SQLiteColumn {
  const found = columns[name];
  if (!found) throw new Error(`No column ${name}`);
  return found;
}

function toMemberRecord(row: Record<string, unknown>): MemberRecord {
  return {
    id: String(row.id),
    key: String(row.key),
    description: String(row.description ?? ''),
    company: row.company === undefined || row.company === null ? null : String(row.company),
  };
}

/** Reference records of one member kind by `id` or `key`, scoped; chunked, one batch. */
export async function readMemberRecords(
  db: Database,
  scope: TenantScope,
  kind: MemberKind,
  by: 'id' | 'key',
  values: readonly string[],
): Promise<Map<string, MemberRecord>> {
  const found = new Map<string, MemberRecord>();
  const chunks = chunkList([...new Set(values)]);
  const columns = referenceColumns(kind.referenceKind);
  const queries = chunks.map((chunk) =>
    db
      .select()
      .from(readReferenceTable(kind.referenceKind))
      .where(
        and(
          eq(column(columns, 'tenantKey'), scope.tenantKey),
          eq(column(columns, 'orgKey'), scope.orgKey),
          inArray(column(columns, by), chunk),
        ),
      ),
  );
  const [first, ...rest] = queries;
  if (!first) return found;
  const results = await db.batch([first, ...rest]);
  for (const rows of results) {
    for (const row of rows as Record<string, unknown>[]) {
      const record = toMemberRecord(row);
      found.set(by === 'id' ? record.id : record.key, record);
    }
  }
  return found;
}

function memberQuery(db: Database, scope: TenantScope, kind: MemberKind, routeIds: readonly string[]) {
  const ref = referenceColumns(kind.referenceKind);
  const table = kind.table;
  return db
    .select({ routeId: table.routeId, id: column(ref, 'id'), key: column(ref, 'key'), description: column(ref, 'description') })
    .from(table)
    .innerJoin(
      readReferenceTable(kind.referenceKind),
      and(eq(column(ref, 'tenantKey'), table.tenantKey), eq(column(ref, 'orgKey'), table.orgKey), eq(column(ref, 'key'), table.memberKey)),
    )
    .where(and(eq(table.tenantKey, scope.tenantKey), eq(table.orgKey, scope.orgKey), inArray(table.routeId, [...routeIds])))
    .orderBy(table.routeId, table.memberKey);
}

export type RouteMembers = Record<MemberKind['field'], MemberItem[]>;

/** Every route's locations, equipment items and tools as `{id, key, description}`, ordered by key; one batch. */
export async function readRouteMembers(db: Database, scope: TenantScope, routeIds: readonly string[]): Promise<Map<string, RouteMembers>> {
  const members = new Map<string, RouteMembers>(routeIds.map((id) => [id, { locations: [], equipmentItems: [], tools: [] }]));
  const queries = MEMBER_KINDS.flatMap((kind) =>
    chunkList(routeIds).map((chunk) => ({ kind, query: memberQuery(db, scope, kind, chunk) })),
  );
  const [first, ...rest] = queries.map((item) => item.query);
  if (!first) return members;
  const results = await db.batch([first, ...rest]);
  results.forEach((rows, index) => {
    const kind = queries[index]?.kind;
    if (!kind) return;
    for (const row of rows as { routeId: string; id: unknown; key: unknown; description: unknown }[]) {
      members.get(row.routeId)?.[kind.field].push({ id: String(row.id), key: String(row.key), description: String(row.description ?? '') });
    }
  });
  return members;
}

/** The keys of `keys` that are already members of the route. */
export async function readExistingMembers(
  db: Database,
  scope: TenantScope,
  kind: MemberKind,
  routeId: string,
  keys: readonly string[],
): Promise<Set<string>> {
  const table = kind.table;
  const queries = chunkList(keys).map((chunk) =>
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
  const [first, ...rest] = queries;
  if (!first) return new Set();
  const results = await db.batch([first, ...rest]);
  return new Set(results.flatMap((rows) => (rows as { key: string }[]).map((row) => row.key)));
}
