/**
 * A tenant table's row as SQLite JSON (the history's row keys and images, src/tenant/backup/): the SQL that makes
 * the JSON array of a row's primary key and the JSON object of its columns, from `alias.column` or `NEW.column`.
 */
import type { TenantTable } from './tenant-tables';

/** A quoted identifier. */
export const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** SQL of the JSON array of a row's key (`alias.column`, or `NEW.column` in a trigger). */
export function renderKeyJson(table: TenantTable, row: string): string {
  return `json_array(${table.key.map((column) => `${row}.${quoteName(column)}`).join(', ')})`;
}

/** Column pairs per json_object/json_insert call: D1 allows 32 arguments per SQL function. */
const PAIRS_PER_CALL = 15;

/** SQL of the JSON object of a row's columns (every column but an insertion sequence). */
export function renderImageJson(table: TenantTable, row: string): string {
  const pairs = table.columns.map((column) => `'${column}', ${row}.${quoteName(column)}`);
  let image = `json_object(${pairs.slice(0, PAIRS_PER_CALL).join(', ')})`;
  for (let start = PAIRS_PER_CALL; start < pairs.length; start += PAIRS_PER_CALL) {
    const more = table.columns.slice(start, start + PAIRS_PER_CALL).map((column) => `'$.${column}', ${row}.${quoteName(column)}`);
    image = `json_insert(${image}, ${more.join(', ')})`;
  }
  return image;
}
