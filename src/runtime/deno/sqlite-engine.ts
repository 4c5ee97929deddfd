/**
 * Runs single SQL statements on node:sqlite with D1's rules: at most 100 bound parameters, D1's value
 * binding (numbers as REAL, booleans as 1/0, blobs), D1's result values (numbers, blobs as byte
 * arrays), no SQL transaction statements (D1 only offers batches), and errors worded like D1's.
 */
import type { DatabaseSync, SqliteValue, StatementSync } from 'node:sqlite';

const D1_MAX_BOUND_PARAMETERS = 100;
/** D1 refuses statements longer than 100 KB. */
const D1_MAX_STATEMENT_BYTES = 100_000;
const encoder = new TextEncoder();

const TRANSACTION_STATEMENT = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/** SQLite primary result codes (extended code & 0xff) as D1 names them in its error messages. */
const SQLITE_CODE_NAMES: Readonly<Record<number, string>> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  13: 'SQLITE_FULL',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  25: 'SQLITE_RANGE',
};

interface ExecutedStatement {
  readonly rows: unknown[];
  readonly columns: string[];
  readonly meta: D1Meta & Record<string, unknown>;
}

export function buildD1Error(message: string, cause?: unknown): Error {
  return new Error(`D1_ERROR: ${message}`, cause === undefined ? undefined : { cause });
}

function wrapSqliteError(error: unknown): Error {
  if (!(error instanceof Error)) return buildD1Error(String(error), error);
  const code = 'errcode' in error ? error.errcode : undefined;
  const name = typeof code === 'number' ? SQLITE_CODE_NAMES[code & 0xff] : undefined;
  return buildD1Error(name ? `${error.message}: ${name}` : error.message, error);
}

/** Converts one bound value the way D1 does; anything D1 refuses is a D1_TYPE_ERROR. */
function toSqliteValue(value: unknown): SqliteValue {
  if (value === null || typeof value === 'string' || typeof value === 'bigint') return value;
  // D1 binds every JS number (and a boolean, as 1 or 0) as a REAL, as node:sqlite does.
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new Error(`D1_TYPE_ERROR: Type '${typeof value}' not supported for value '${String(value)}'`);
}

/** Converts one result value the way D1 answers it: integers as numbers, blobs as arrays of bytes. */
/** A column of a row node:sqlite returned as an object (undefined when there is no such row or column). */
export function readColumn(row: unknown, column: string): unknown {
  return typeof row === 'object' && row !== null && column in row ? Reflect.get(row, column) : undefined;
}

function fromSqliteValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Array.from(value);
  return value;
}

function convertRow(row: unknown): unknown {
  if (Array.isArray(row)) return row.map(fromSqliteValue);
  const plain: Record<string, unknown> = {};
  if (typeof row === 'object' && row !== null) for (const [name, value] of Object.entries(row)) plain[name] = fromSqliteValue(value);
  return plain;
}

export class SqliteEngine {
  private readonly statements = new Map<string, StatementSync>();
  /** Commits since the file was opened, after a base taken from the clock: bookmarks keep growing across restarts. */
  private commits = Date.now();

  constructor(readonly sqlite: DatabaseSync) {}

  private readStatement(query: string): StatementSync {
    let statement = this.statements.get(query);
    if (!statement) {
      try {
        statement = this.sqlite.prepare(query);
      } catch (error) {
        throw wrapSqliteError(error);
      }
      statement.setReadBigInts(true);
      this.statements.set(query, statement);
    }
    return statement;
  }

  private readCounters(): { total: number; lastRowId: number } {
    const statement = this.readStatement('SELECT total_changes() AS total, last_insert_rowid() AS lastRowId');
    statement.setReturnArrays(false);
    const row = statement.all()[0];
    return { total: Number(readColumn(row, 'total')), lastRowId: Number(readColumn(row, 'lastRowId')) };
  }

  /** Checks what D1 checks before running a statement. */
  checkStatement(query: string, parameters: readonly unknown[]): void {
    if (TRANSACTION_STATEMENT.test(query)) {
      throw buildD1Error('SQL transaction statements are not supported; use batch() to run statements in one transaction.');
    }
    if (query.length > D1_MAX_STATEMENT_BYTES / 4 && encoder.encode(query).length > D1_MAX_STATEMENT_BYTES) {
      throw buildD1Error(`statement too long: SQLITE_TOOBIG (D1 allows ${D1_MAX_STATEMENT_BYTES} bytes per statement)`);
    }
    if (parameters.length > D1_MAX_BOUND_PARAMETERS) {
      throw buildD1Error(
        `too many SQL variables at offset 0: SQLITE_ERROR (${parameters.length} bound parameters; D1 allows ${D1_MAX_BOUND_PARAMETERS})`,
      );
    }
  }

  /** Runs one statement synchronously; rows as objects, or as arrays when `asArrays`. */
  execute(query: string, parameters: readonly unknown[], asArrays = false): ExecutedStatement {
    this.checkStatement(query, parameters);
    const values = parameters.map(toSqliteValue);
    const statement = this.readStatement(query);
    const started = performance.now();
    const before = this.readCounters().total;
    let rows: unknown[];
    try {
      statement.setReturnArrays(asArrays);
      rows = statement.all(...values).map(convertRow);
    } catch (error) {
      throw wrapSqliteError(error);
    }
    const after = this.readCounters();
    const changes = after.total - before;
    if (changes > 0 && !this.sqlite.isTransaction) this.commits += 1;
    return {
      rows,
      columns: statement.columns().map((column) => column.name),
      meta: {
        duration: performance.now() - started,
        size_after: 0,
        rows_read: rows.length,
        rows_written: changes,
        last_row_id: after.lastRowId,
        changed_db: changes > 0,
        changes,
      },
    };
  }

  /** Runs `work` in one transaction: all of it commits, or none of it does. */
  runTransaction<T>(work: () => T): T {
    this.sqlite.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.sqlite.exec('COMMIT');
      this.commits += 1;
      return result;
    } catch (error) {
      this.sqlite.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * A D1-style bookmark of the latest commit (`<commits, 16 hex digits split in two>-00000000-<32 zeros>`): one
   * local copy, so every read is at least as fresh as any bookmark; the value only has to keep growing.
   */
  readBookmark(): string {
    const hex = this.commits.toString(16).padStart(16, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8)}-00000000-${'0'.repeat(32)}`;
  }

  /** Runs several statements separated by semicolons (D1's exec()). */
  executeScript(script: string): void {
    try {
      this.sqlite.exec(script);
    } catch (error) {
      throw wrapSqliteError(error);
    }
  }
}
