/**
 * The chunks a move is made of, each within D1's limits (100 bound parameters and 100 KB per statement, 1,000
 * queries per invocation): copy up to READ_ROWS rows of one table, delete up to DELETE_ROWS rows, count and
 * fingerprint a tenant/org's rows. Values travel as SQLite's own literals (`quote()`), so integers beyond 2^53,
 * reals and text come out on the target exactly as they were; large text or blob values travel as bound parameters.
 */
import type { TenantScope } from '../../db/client';
import type { TenantTable } from './tenant-tables';

const READ_ROWS = 100;
const DELETE_ROWS = 500;
/** Values longer than this (bytes) are bound as parameters instead of inlined as literals. */
const INLINE_BYTES = 2_000;
const MAX_INSERT_BYTES = 90_000;
const MAX_INSERT_PARAMETERS = 90;
const MAX_INSERT_ROWS = 100;

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

function buildReadQuery(table: TenantTable): string {
  const values = table.columns.flatMap((column, index) => {
    const big = `length(CAST(${quoteName(column)} AS BLOB)) > ${INLINE_BYTES}`;
    return [
      `CASE WHEN ${big} THEN NULL ELSE quote(${quoteName(column)}) END AS q${index}`,
      `CASE WHEN ${big} THEN ${quoteName(column)} END AS v${index}`,
    ];
  });
  return `SELECT rowid AS r, ${values.join(', ')} FROM ${quoteName(table.name)} WHERE tenant_key = ? AND org_key = ? AND rowid > ? ORDER BY rowid LIMIT ${READ_ROWS}`;
}

interface Insert {
  sql: string;
  /** UTF-8 bytes of `sql` (D1 counts statement length in bytes). */
  bytes: number;
  parameters: unknown[];
  rows: number;
}

const encoder = new TextEncoder();

/** D1 answers blobs as arrays of bytes; bind them back as bytes. */
const toParameter = (value: unknown) => (Array.isArray(value) ? Uint8Array.from(value, Number) : value);

function buildInserts(table: TenantTable, rows: readonly Record<string, unknown>[]): Insert[] {
  const head = `INSERT INTO ${quoteName(table.name)} (${table.columns.map(quoteName).join(', ')}) VALUES `;
  const inserts: Insert[] = [];
  let current: Insert | null = null;
  for (const row of rows) {
    const parameters: unknown[] = [];
    const literals = table.columns.map((_, index) => {
      const literal = row[`q${index}`];
      if (typeof literal === 'string') return literal;
      parameters.push(toParameter(row[`v${index}`]));
      return '?';
    });
    const tuple = `(${literals.join(', ')})`;
    const bytes = encoder.encode(tuple).length;
    const full =
      current !== null &&
      (current.bytes + bytes + 2 > MAX_INSERT_BYTES ||
        current.parameters.length + parameters.length > MAX_INSERT_PARAMETERS ||
        current.rows >= MAX_INSERT_ROWS);
    if (current === null || full) {
      current = { sql: head + tuple, bytes: encoder.encode(head).length + bytes, parameters, rows: 1 };
      inserts.push(current);
    } else {
      current.sql += `, ${tuple}`;
      current.bytes += bytes + 2;
      current.parameters.push(...parameters);
      current.rows += 1;
    }
  }
  return inserts;
}

export interface ChunkOutcome {
  /** Rows copied or deleted (0: the table is done). */
  readonly rows: number;
  /** Statements run (for the per-invocation budget). */
  readonly statements: number;
  /** Copies: the rowid of the last row copied. */
  readonly last: number;
}

/** Copies the rows of `table` after rowid `after` (at most READ_ROWS) from `source` to `target`, in rowid order. */
export async function copyChunk(
  source: D1Database,
  target: D1Database,
  table: TenantTable,
  scope: TenantScope,
  after: number,
): Promise<ChunkOutcome> {
  const { results } = await source.prepare(buildReadQuery(table)).bind(scope.tenantKey, scope.orgKey, after).all<Record<string, unknown>>();
  if (results.length === 0) return { rows: 0, statements: 1, last: after };
  const inserts = buildInserts(table, results);
  await target.batch(inserts.map((insert) => target.prepare(insert.sql).bind(...insert.parameters)));
  return { rows: results.length, statements: 1 + inserts.length, last: Number(results[results.length - 1]?.r ?? after) };
}

/** Deletes up to DELETE_ROWS of the tenant/org's rows of `table`. */
export async function deleteChunk(db: D1Database, table: TenantTable, scope: TenantScope): Promise<ChunkOutcome> {
  const name = quoteName(table.name);
  const result = await db
    .prepare(`DELETE FROM ${name} WHERE rowid IN (SELECT rowid FROM ${name} WHERE tenant_key = ? AND org_key = ? LIMIT ${DELETE_ROWS})`)
    .bind(scope.tenantKey, scope.orgKey)
    .run();
  return { rows: result.meta.changes ?? 0, statements: 1, last: 0 };
}

/** Rows of the tenant/org per table (one batch). */
export async function countRows(db: D1Database, tables: readonly TenantTable[], scope: TenantScope): Promise<Map<string, number>> {
  const results = await db.batch<{ n: number }>(
    tables.map((table) =>
      db
        .prepare(`SELECT count(*) AS n FROM ${quoteName(table.name)} WHERE tenant_key = ? AND org_key = ?`)
        .bind(scope.tenantKey, scope.orgKey),
    ),
  );
  return new Map(tables.map((table, index) => [table.name, Number(results[index]?.results[0]?.n ?? 0)]));
}

/** Per table: `<rows>:<total length of every copied value's literal>`, to check a copy before the switch. */
export async function fingerprintRows(db: D1Database, tables: readonly TenantTable[], scope: TenantScope): Promise<string[]> {
  const results = await db.batch<{ n: number; w: number }>(
    tables.map((table) => {
      const weight = table.columns.map((column) => `length(quote(${quoteName(column)}))`).join(' + ');
      return db
        .prepare(`SELECT count(*) AS n, total(${weight}) AS w FROM ${quoteName(table.name)} WHERE tenant_key = ? AND org_key = ?`)
        .bind(scope.tenantKey, scope.orgKey);
    }),
  );
  return tables.map((table, index) => `${table.name}:${results[index]?.results[0]?.n ?? 0}:${results[index]?.results[0]?.w ?? 0}`);
}
