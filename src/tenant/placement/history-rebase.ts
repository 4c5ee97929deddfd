/**
 * A move renumbers the rows of an insertion-sequence table (`kpi_measurements.id`, see tenant-tables.ts), while the
 * history it copies names them by their old ids. At the switch, before the target becomes `active`, the target's
 * history gets, per such table, a `rebase` entry (every row of the table before it is gone) followed by an `insert`
 * entry of every row under its new id: a restore rebuilds such a table from its last rebase at or before the moment
 * (src/tenant/backup/restore-steps.ts), so old and new ids never meet.
 */
import type { TenantScope } from '../../db/client';
import { quoteName, renderImageJson, renderKeyJson } from './row-json';
import type { TenantTable } from './tenant-tables';

const LAST =
  'SELECT max(coalesce((SELECT max(seq) FROM tenant_history WHERE tenant_key = ?1 AND org_key = ?2), 0), coalesce((SELECT pruned_seq FROM tenant_history_pruned WHERE tenant_key = ?1 AND org_key = ?2), 0)) AS last';
const COLUMNS = 'tenant_history (tenant_key, org_key, seq, recorded_on, table_name, operation, row_key, row_image)';
const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** The statements of the rebase of every insertion-sequence table among `tables` (one each). */
export function buildHistoryRebase(db: D1Database, tables: readonly TenantTable[], scope: TenantScope): D1PreparedStatement[] {
  return tables
    .filter((table) => table.sequence !== null)
    .map((table) => {
      const name = `'${table.name.replace(/'/g, "''")}'`;
      const rows = `SELECT ?1, ?2, n.last + 1 + row_number() OVER (ORDER BY t.rowid), ${NOW}, ${name}, 'insert', ${renderKeyJson(table, 't')}, ${renderImageJson(table, 't')} FROM ${quoteName(table.name)} AS t, (${LAST}) AS n WHERE t.tenant_key = ?1 AND t.org_key = ?2`;
      const marker = `SELECT ?1, ?2, n.last + 1, ${NOW}, ${name}, 'rebase', '[]', NULL FROM (${LAST}) AS n`;
      return db.prepare(`INSERT INTO ${COLUMNS} ${marker} UNION ALL ${rows}`).bind(scope.tenantKey, scope.orgKey);
    });
}
