/** Every row a tenant/org has in a database, per tenant table, to compare storage before and after a move. */
import type { TenantScope } from '../../src/db/client';
import { TENANT_TABLES } from '../../src/tenant-tables';

/**
 * Per table, the tenant/org's rows (insertion-sequence ids left out) in rowid order, each value as SQLite's literal
 * (`quote()`: exact for 64-bit integers and reals, and shows the stored type).
 */
export async function snapshotRows(db: D1Database, scope: TenantScope): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of TENANT_TABLES) {
    const columns = table.columns.map((column) => `quote("${column}") AS "${column}"`).join(', ');
    const { results } = await db
      .prepare(`SELECT ${columns} FROM "${table.name}" WHERE tenant_key = ? AND org_key = ? ORDER BY rowid`)
      .bind(scope.tenantKey, scope.orgKey)
      .all<Record<string, unknown>>();
    snapshot[table.name] = results.map((row) => JSON.stringify(row));
  }
  return snapshot;
}

/** The tenant/org's rows in `db`, every tenant table together. */
export async function countTenantRows(db: D1Database, scope: TenantScope): Promise<number> {
  const snapshot = await snapshotRows(db, scope);
  return Object.values(snapshot).reduce((sum, rows) => sum + rows.length, 0);
}

/** The residency state of the tenant/org in `db` (null: no row). */
export async function readResidency(db: D1Database, scope: TenantScope): Promise<string | null> {
  const row = await db
    .prepare('SELECT state FROM tenant_residency WHERE tenant_key = ? AND org_key = ?')
    .bind(scope.tenantKey, scope.orgKey)
    .first<{ state: string }>();
  return row?.state ?? null;
}
