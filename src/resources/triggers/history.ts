/**
 * The history triggers (src/tenant/backup/history-table.ts): after every insert, update and delete of a restored
 * tenant table's row, one `tenant_history` entry with the row's key and its after-image, at the tenant/org's next
 * position. They record while the tenant/org is `active` here (every acknowledged write) or `moving` (a restore
 * rebuilding it: a move writes nothing while the source is `moving`), never the copies and deletes of a move.
 * The first creation of a table's insert trigger records the rows it already has (positions in rowid order), so every
 * tenant/org's history is complete from an empty state.
 */
import { renderImageJson, renderKeyJson } from '../../tenant/backup/tables';
import type { TenantTable } from '../../tenant/placement/tenant-tables';
import { quote, renderAfterTrigger, rowColumn } from './sql';

const COLUMNS = '`tenant_history` (`tenant_key`, `org_key`, `seq`, `recorded_on`, `table_name`, `operation`, `row_key`, `row_image`)';
const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

function sameScopeOf(alias: string, row: string): string {
  return `${quote(alias)}.\`tenant_key\` = ${row}.\`tenant_key\` AND ${quote(alias)}.\`org_key\` = ${row}.\`org_key\``;
}

/** The tenant/org's last position (its newest entry, else the last one pruned, else 0). */
function lastPosition(row: string): string {
  return `coalesce((SELECT max(\`h\`.\`seq\`) FROM \`tenant_history\` AS \`h\` WHERE ${sameScopeOf('h', row)}), (SELECT \`p\`.\`pruned_seq\` FROM \`tenant_history_pruned\` AS \`p\` WHERE ${sameScopeOf('p', row)}), 0)`;
}

function recording(row: string): string {
  return `EXISTS (SELECT 1 FROM \`tenant_residency\` AS \`r\` WHERE ${sameScopeOf('r', row)} AND \`r\`.\`state\` IN ('active', 'moving'))`;
}

function renderHistoryTrigger(table: TenantTable, operation: 'insert' | 'update' | 'delete'): string {
  const row = operation === 'delete' ? 'OLD' : 'NEW';
  const image = operation === 'delete' ? 'NULL' : renderImageJson(table, row);
  return renderAfterTrigger(`${table.name}_history_${operation}`, operation.toUpperCase(), table.name, [
    `INSERT INTO ${COLUMNS}`,
    `SELECT ${rowColumn(row, 'tenant_key')}, ${rowColumn(row, 'org_key')}, ${lastPosition(row)} + 1, ${NOW}, '${table.name}', '${operation}',`,
    `  ${renderKeyJson(table, row)}, ${image}`,
    `WHERE ${recording(row)};`,
  ]);
}

export function renderHistoryTriggers(table: TenantTable): string[] {
  return [renderHistoryTrigger(table, 'insert'), renderHistoryTrigger(table, 'update'), renderHistoryTrigger(table, 'delete')];
}

/** The entries of the rows a table has when its history triggers first appear: inserts, in rowid order. */
export function renderHistoryBaseline(table: TenantTable): string {
  const scope = `PARTITION BY \`t\`.\`tenant_key\`, \`t\`.\`org_key\` ORDER BY \`t\`.rowid`;
  return [
    `INSERT INTO ${COLUMNS}`,
    `SELECT \`t\`.\`tenant_key\`, \`t\`.\`org_key\`, ${lastPosition('`t`')} + row_number() OVER (${scope}), ${NOW}, '${table.name}', 'insert',`,
    `  ${renderKeyJson(table, '`t`')}, ${renderImageJson(table, '`t`')}`,
    `FROM ${quote(table.name)} AS \`t\` WHERE ${recording('`t`')};`,
  ].join('\n');
}
