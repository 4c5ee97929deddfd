/** Bulk upsert and delete of tenant reference records. */
import { and, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { chunkRows } from '../db/client';
import { runWrites } from '../db/writes';
import type { Database } from '../db/client';
import type { TenantScope } from '../db/client';
import type { ReferenceKindSpec } from './spec';
import { readReferenceTable } from './tables';
import type { ReferenceInput } from './validate';

function columnsOf(spec: ReferenceKindSpec): Record<string, SQLiteColumn> {
  return readReferenceTable(spec.kind) as unknown as Record<string, SQLiteColumn>;
}

/** Upserts every record by key in one batch (one transaction), chunked under D1's 100-parameter limit. */
export async function upsertReferenceRecords(
  db: Database,
  spec: ReferenceKindSpec,
  scope: TenantScope,
  records: readonly ReferenceInput[],
): Promise<number> {
  if (records.length === 0) return 0;
  const table = readReferenceTable(spec.kind);
  const columns = columnsOf(spec);
  const fieldNames = Object.keys(spec.fields);
  const rows = records.map((record) => {
    const row: Record<string, unknown> = { id: crypto.randomUUID(), tenantKey: scope.tenantKey, orgKey: scope.orgKey, key: record.key };
    for (const name of fieldNames) row[name] = record[name];
    return row;
  });
  const set = Object.fromEntries(
    fieldNames.map((name) => [name, sql.raw(`excluded."${(spec.fields[name] as { column: string }).column}"`)]),
  );
  const target = [columns.tenantKey, columns.orgKey, columns.key] as SQLiteColumn[];
  const statements = chunkRows(rows, 4 + fieldNames.length).map((chunk) =>
    fieldNames.length === 0
      ? db.insert(table).values(chunk).onConflictDoNothing({ target })
      : db.insert(table).values(chunk).onConflictDoUpdate({ target, set }),
  );
  await runWrites(db, statements);
  return records.length;
}

export async function deleteReferenceRecord(db: Database, spec: ReferenceKindSpec, scope: TenantScope, key: string): Promise<boolean> {
  const table = readReferenceTable(spec.kind);
  const columns = columnsOf(spec);
  const [rows] = await runWrites(db, [
    db
      .delete(table)
      .where(
        and(
          eq(columns.tenantKey as SQLiteColumn, scope.tenantKey),
          eq(columns.orgKey as SQLiteColumn, scope.orgKey),
          eq(columns.key as SQLiteColumn, key),
        ),
      )
      .returning({ id: columns.id as SQLiteColumn }),
  ]);
  return rows.length > 0;
}
