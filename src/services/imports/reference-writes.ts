/**
 * The writes and reads of reference file imports (src/services/imports/reference-writer.ts): the chunk's new records
 * (one `INSERT ... SELECT FROM json_each(?)`) and changed ones (one UPDATE each), with the events PUT /referenceData
 * writes (`created` / `updated`, version = the event's sequence); their undo (deletes after their `deleted` tombstones,
 * restores with their `updated` events); the stored records of keys or ids; the keys other records still use.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { EventFields } from '../../events/outbox';
import type { TenantReferenceStore } from '../../resources/reference/tables';
import type { ReferenceUser } from '../../resources/reference/usage';
import { planStatement } from '../../tenant/staged-statements';
import type { PlannedStatement, StagedWrite, WriteContext } from '../../tenant/unit-of-work';

/** A record's fields by name (no id, no key), as drizzle reads and writes them (booleans, lists of keys). */
export type ReferenceValues = Readonly<Record<string, unknown>>;

/** A stored record: its id, key and fields. */
interface StoredReference {
  readonly id: string;
  readonly key: string;
  readonly values: ReferenceValues;
}

/** A record to write: its id, key and fields (for an undo: the values it gets back). */
export interface ReferenceWrite {
  readonly id: string;
  readonly key: string;
  readonly values: ReferenceValues;
}

function fieldNames(store: TenantReferenceStore): string[] {
  return Object.keys(store.spec.fields);
}

/** `(SELECT value FROM json_each(?))`: a list as one bound parameter. */
function jsonList(values: readonly string[]): SQL {
  return sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/** The stored records of the tenant/org whose `by` (key or id) is in the list. */
export async function readStoredReferences(
  db: Database,
  scope: TenantScope,
  store: TenantReferenceStore,
  by: 'key' | 'id',
  values: readonly string[],
): Promise<StoredReference[]> {
  if (values.length === 0) return [];
  const selection: Record<string, SQLiteColumn> = { id: store.common.id, key: store.common.key };
  for (const name of fieldNames(store)) {
    const column = store.columns[name];
    if (column) selection[`f:${name}`] = column;
  }
  const rows: Record<string, unknown>[] = await db
    .select(selection)
    .from(store.table)
    .where(and(scopeCondition(store.common, scope), inArray(by === 'key' ? store.common.key : store.common.id, jsonList(values))));
  return rows.map((row) => ({
    id: String(row.id),
    key: String(row.key),
    values: Object.fromEntries(fieldNames(store).map((name) => [name, row[`f:${name}`] ?? null])),
  }));
}

/** The keys of `keys` that a record of the tenant/org still uses (a service's column, another kind's field): one batch. */
export async function findKeysInUse(
  db: Database,
  scope: TenantScope,
  kind: string,
  keys: readonly string[],
  users: readonly ReferenceUser[],
): Promise<Set<string>> {
  const relevant = users.filter((user) => user.kind === kind);
  if (keys.length === 0 || relevant.length === 0) return new Set();
  const listed = JSON.stringify(keys);
  const queries = relevant.map((user) => {
    const match = user.list
      ? sql`EXISTS (SELECT 1 FROM json_each(${user.column}) WHERE json_each.value IN (SELECT value FROM json_each(${listed})))`
      : inArray(user.column, sql`(SELECT value FROM json_each(${listed}))`);
    return db
      .selectDistinct({ value: user.column })
      .from(user.table)
      .where(and(eq(user.tenantKey, scope.tenantKey), eq(user.orgKey, scope.orgKey), match));
  });
  const wanted = new Set(keys);
  const used = new Set<string>();
  for (const rows of await runReads(db, queries)) {
    for (const row of rows) {
      const value: unknown = row.value;
      const list: unknown[] = Array.isArray(value)
        ? value
        : typeof value === 'string' && value.startsWith('[')
          ? parseList(value)
          : [value];
      for (const item of list) if (typeof item === 'string' && wanted.has(item)) used.add(item);
    }
  }
  return used;
}

function parseList(text: string): unknown[] {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [];
}

function eventOf(store: TenantReferenceStore, scope: TenantScope, changeType: 'created' | 'updated' | 'deleted', ids: readonly string[]) {
  const { common, table, spec } = store;
  const fields: EventFields = {
    resource: `referenceData/${spec.name}`,
    changeType,
    recordId: sql`${common.id}`,
    key: sql`${common.key}`,
    version: 'sequence',
  };
  return { event: { fields, from: sql`from ${table} where ${scopeCondition(common, scope)} and ${common.id} in ${jsonList(ids)}` } };
}

/** The records as one `INSERT ... SELECT FROM json_each(?)`, columns in table order, each value as its column stores it. */
function buildInsert({ db, scope }: WriteContext, store: TenantReferenceStore, records: readonly ReferenceWrite[]) {
  const rows = records.map((record) => {
    const row: Record<string, unknown> = { id: record.id, key: record.key };
    for (const name of fieldNames(store)) {
      const value = record.values[name];
      row[name] = value === null || value === undefined ? null : store.columns[name]?.mapToDriverValue(value);
    }
    return row;
  });
  const shared: Readonly<Record<string, string>> = { tenantKey: scope.tenantKey, orgKey: scope.orgKey };
  const select = Object.keys(store.columns).map((name) => {
    if (!/^\w+$/.test(name)) throw new Error(`Field ${name} is not an identifier.`);
    const value = shared[name];
    return value !== undefined ? sql`${value}` : sql.raw(`json_extract(value, '$."${name}"')`);
  });
  return db.insert(store.table).select(sql`SELECT ${sql.join(select, sql`, `)} FROM json_each(${JSON.stringify(rows)})`);
}

/** Each record's fields set (one UPDATE per record, by id). */
function buildUpdates({ db, scope }: WriteContext, store: TenantReferenceStore, records: readonly ReferenceWrite[]): PlannedStatement[] {
  return records.map((record) =>
    planStatement(
      db
        .update(store.table)
        .set(record.values)
        .where(and(scopeCondition(store.common, scope), eq(store.common.id, record.id))),
    ),
  );
}

/** A chunk's writes: its new records with their `created` events, its changed ones with their `updated` events. */
export function stageReferenceWrites(
  store: TenantReferenceStore,
  creates: readonly ReferenceWrite[],
  updates: readonly ReferenceWrite[],
): StagedWrite<void> {
  return {
    plan(context) {
      const statements: PlannedStatement[] = [];
      if (creates.length > 0) {
        statements.push(planStatement(buildInsert(context, store, creates)));
        statements.push(
          eventOf(
            store,
            context.scope,
            'created',
            creates.map((record) => record.id),
          ),
        );
      }
      if (updates.length > 0) {
        statements.push(...buildUpdates(context, store, updates));
        statements.push(
          eventOf(
            store,
            context.scope,
            'updated',
            updates.map((record) => record.id),
          ),
        );
      }
      return { table: store.spec.table, statements, settle: () => undefined };
    },
  };
}

/** A chunk's undo: records deleted (their `deleted` tombstones first), records given their values back (`updated`). */
export function stageReferenceUndo(
  store: TenantReferenceStore,
  deletes: readonly string[],
  restores: readonly ReferenceWrite[],
): StagedWrite<void> {
  return {
    plan(context) {
      const statements: PlannedStatement[] = [];
      if (deletes.length > 0) {
        const condition = and(scopeCondition(store.common, context.scope), inArray(store.common.id, jsonList(deletes)));
        statements.push(eventOf(store, context.scope, 'deleted', deletes));
        statements.push(planStatement(context.db.delete(store.table).where(condition)));
      }
      if (restores.length > 0) {
        statements.push(...buildUpdates(context, store, restores));
        statements.push(
          eventOf(
            store,
            context.scope,
            'updated',
            restores.map((record) => record.id),
          ),
        );
      }
      return { table: store.spec.table, statements, settle: () => undefined };
    },
  };
}
