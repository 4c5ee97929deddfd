/** Bulk upsert and delete of tenant reference records (statements run through the one write path). */
import { and, eq, sql } from 'drizzle-orm';
import { chunkForParameters } from '../db/client';
import type { Database, TenantScope } from '../db/client';
import { runWrites } from '../db/writes';
import { buildEventInsert } from '../events/outbox';
import type { EventOrigin } from '../events/outbox';
import type { ReferenceInput, ReferenceKindSpec } from './spec';
import { requireTenantReferenceStore } from './tables';

/** The change feed's resource of a reference kind. */
export function referenceResourceOf(spec: ReferenceKindSpec): string {
  return `referenceData/${spec.kind}`;
}

/**
 * Upserts every record by key in one batch (one transaction), chunked under D1's 100-parameter limit; each chunk is
 * followed by the events of its records (`created` for a new key, else `updated`; version: the event's sequence).
 */
export async function upsertReferenceRecords(
  db: Database,
  spec: ReferenceKindSpec,
  origin: EventOrigin,
  records: readonly ReferenceInput[],
): Promise<number> {
  const scope: TenantScope = origin;
  const store = requireTenantReferenceStore(spec.kind);
  const fields = Object.entries(spec.fields);
  const rows = records.map((record) => {
    const row: Record<string, unknown> = { id: crypto.randomUUID(), tenantKey: scope.tenantKey, orgKey: scope.orgKey, key: record.key };
    for (const [name] of fields) row[name] = record[name];
    return row;
  });
  const set = Object.fromEntries(fields.map(([name, field]) => [name, sql.raw(`excluded."${field.column}"`)]));
  const target = [store.common.tenantKey, store.common.orgKey, store.common.key];
  const { table, common } = store;
  await runWrites(
    db,
    chunkForParameters(rows, 4 + fields.length).flatMap((chunk) => {
      const keys = JSON.stringify(chunk.map((row) => row.key));
      const created = JSON.stringify(chunk.map((row) => row.id));
      const event = buildEventInsert(
        db,
        origin,
        {
          resource: referenceResourceOf(spec),
          changeType: sql`case when ${common.id} in (select value from json_each(${created})) then 'created' else 'updated' end`,
          recordId: sql`${common.id}`,
          key: sql`${common.key}`,
          version: 'sequence',
        },
        sql`from ${table} where ${common.tenantKey} = ${scope.tenantKey} and ${common.orgKey} = ${scope.orgKey}
          and ${common.key} in (select value from json_each(${keys}))`,
      );
      const upsert =
        fields.length === 0
          ? db.insert(table).values(chunk).onConflictDoNothing({ target })
          : db.insert(table).values(chunk).onConflictDoUpdate({ target, set });
      return [upsert, event];
    }),
  );
  return records.length;
}

/** Deletes one record by key, after its `deleted` tombstone (same condition, same transaction). */
export async function deleteReferenceRecord(db: Database, spec: ReferenceKindSpec, origin: EventOrigin, key: string): Promise<boolean> {
  const { table, common } = requireTenantReferenceStore(spec.kind);
  const condition = and(eq(common.tenantKey, origin.tenantKey), eq(common.orgKey, origin.orgKey), eq(common.key, key));
  const tombstone = buildEventInsert(
    db,
    origin,
    { resource: referenceResourceOf(spec), changeType: 'deleted', recordId: sql`${common.id}`, key, version: 'sequence' },
    sql`from ${table} where ${condition}`,
  );
  const [, rows] = await runWrites(db, [tombstone, db.delete(table).where(condition).returning({ id: common.id })]);
  return rows.length > 0;
}
