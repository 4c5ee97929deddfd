/**
 * The SQL a restore writes rows with: inserts and upserts of `[key, image]` JSON pairs (snapshot chunks, history
 * images) through `json_each(?1)`, with the target's scope (`?2`, `?3`) in place of the image's, and deletes by key.
 */
import type { TenantTable } from '../placement/tenant-tables';
import { listIdColumns, renderMappedColumn } from './row-ids';
import { quoteName } from './tables';

/**
 * `json_extract(c.value, '<prefix>."column"')` for every restored column, the target's scope for the scope columns;
 * with `idMapping` (the parameter of a copy's id mapping: row-ids.ts), the row ids a column holds mapped.
 */
function renderValues(table: TenantTable, prefix: string, idMapping?: string): string {
  const ids = idMapping === undefined ? new Map() : listIdColumns(table);
  return table.columns
    .map((column) => {
      if (column === 'tenant_key') return '?2';
      if (column === 'org_key') return '?3';
      const value = `json_extract(c.value, '${prefix}."${column}"')`;
      const holder = ids.get(column);
      return holder === undefined || idMapping === undefined ? value : renderMappedColumn(holder, value, idMapping);
    })
    .join(', ');
}

/**
 * Inserts the images at `prefix` of the JSON array `?1` (an insertion sequence numbered anew, in array order); into
 * another tenant/org, with the row ids mapped by the mapping bound at `idMapping`.
 */
export function renderInsert(table: TenantTable, prefix: string, where: string, idMapping?: string): string {
  const columns = table.columns.map(quoteName).join(', ');
  return `INSERT INTO ${quoteName(table.name)} (${columns}) SELECT ${renderValues(table, prefix, idMapping)} FROM json_each(?1) AS c${where} ORDER BY c.key`;
}

/**
 * Inserts or overwrites, by primary key, the rows of the `[key, image]` pairs of `?1` that pass `where`: each row ends
 * exactly as its image (an insertion-sequence id kept, from the key). Another unique key a row would take from a row
 * not yet reverted fails the statement (revert-steps.ts then rebuilds). With `RETURNING 1`, one row per row written.
 */
export function renderUpsert(table: TenantTable, where: string): string {
  const sequence = table.sequence === null ? [] : [table.sequence];
  const columns = [...table.columns, ...sequence].map(quoteName).join(', ');
  const values = [renderValues(table, '$[1]'), ...sequence.map(() => "json_extract(c.value, '$[0][0]')")].join(', ');
  const updated = table.columns.filter((column) => !table.key.includes(column));
  // Never another tenant/org's row: an insertion-sequence id (a rowid every tenant/org of the database shares) freed by
  // a delete may have been given to another one's new row since. Such a row is left as it is, and not RETURNed.
  const name = quoteName(table.name);
  const sameScope = `${name}."tenant_key" = excluded."tenant_key" AND ${name}."org_key" = excluded."org_key"`;
  const action =
    updated.length === 0
      ? 'DO NOTHING'
      : `DO UPDATE SET ${updated.map((column) => `${quoteName(column)} = excluded.${quoteName(column)}`).join(', ')} WHERE ${sameScope}`;
  const target = table.key.map(quoteName).join(', ');
  return `INSERT INTO ${name} (${columns}) SELECT ${values} FROM json_each(?1) AS c WHERE ${where} ORDER BY c.key ON CONFLICT (${target}) ${action}`;
}

/** Deletes the tenant/org's (`?1`, `?2`) rows whose primary key is one of the JSON arrays of `?3`. */
export function renderDeleteByKeys(table: TenantTable): string {
  const columns = table.key.map(quoteName).join(', ');
  const values = table.key.map((_, index) => `json_extract(c.value, '$[${index}]')`).join(', ');
  return `DELETE FROM ${quoteName(table.name)} WHERE tenant_key = ?1 AND org_key = ?2 AND (${columns}) IN (SELECT ${values} FROM json_each(?3) AS c)`;
}
