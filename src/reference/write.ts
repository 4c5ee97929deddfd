/** Bulk upsert and delete of tenant reference records (statements run through the one write path). */
import { and, eq, sql } from 'drizzle-orm';
import { chunkForParameters } from '../db/client';
import type { Database, TenantScope } from '../db/client';
import { runWrites } from '../db/writes';
import type { ReferenceInput, ReferenceKindSpec } from './spec';
import { requireTenantReferenceStore } from './tables';

/** Upserts every record by key in one batch (one transaction), chunked under D1's 100-parameter limit. */
export async function upsertReferenceRecords(
  db: Database,
  spec: ReferenceKindSpec,
  scope: TenantScope,
  records: readonly ReferenceInput[],
): Promise<number> {
  const store = requireTenantReferenceStore(spec.kind);
  const fields = Object.entries(spec.fields);
  const rows = records.map((record) => {
    const row: Record<string, unknown> = { id: crypto.randomUUID(), tenantKey: scope.tenantKey, orgKey: scope.orgKey, key: record.key };
    for (const [name] of fields) row[name] = record[name];
    return row;
  });
  const set = Object.fromEntries(fields.map(([name, field]) => [name, sql.raw(`excluded."${field.column}"`)]));
  const target = [store.common.tenantKey, store.common.orgKey, store.common.key];
  await runWrites(
    db,
    chunkForParameters(rows, 4 + fields.length).map((chunk) =>
      fields.length === 0
        ? db.insert(store.table).values(chunk).onConflictDoNothing({ target })
        : db.insert(store.table).values(chunk).onConflictDoUpdate({ target, set }),
    ),
  );
  return records.length;
}

export async function deleteReferenceRecord(db: Database, spec: ReferenceKindSpec, scope: TenantScope, key: string): Promise<boolean> {
  const { table, common } = requireTenantReferenceStore(spec.kind);
  const [rows] = await runWrites(db, [
    db
      .delete(table)
      .where(and(eq(common.tenantKey, scope.tenantKey), eq(common.orgKey, scope.orgKey), eq(common.key, key)))
      .returning({ id: common.id }),
  ]);
  return rows.length > 0;
}
