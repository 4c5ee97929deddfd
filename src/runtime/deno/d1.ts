/**
 * A D1-compatible database over node:sqlite (Deno): what drizzle-orm/d1 and the application use of the
 * D1 API (prepare/bind/all/raw/run/first, batch as one transaction, exec, withSession).
 */
import type { DatabaseSync } from 'node:sqlite';
import { buildD1Error, readColumn, SqliteEngine } from './sqlite-engine';

// The D1 API's row type `T` is the caller's claim about its own query, unchecked (as on Cloudflare); the casts to `T`
// below make the same claim over node:sqlite's rows.
function buildResult<T>(rows: unknown[], meta: D1Meta & Record<string, unknown>): D1Result<T> {
  return { success: true, meta, results: rows as T[] };
}

class SqliteD1Statement implements D1PreparedStatement {
  constructor(
    private readonly engine: SqliteEngine,
    readonly query: string,
    readonly parameters: readonly unknown[] = [],
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    this.engine.checkStatement(this.query, values);
    return new SqliteD1Statement(this.engine, this.query, values);
  }

  /** Runs the statement now (used by batch() inside its transaction). */
  runNow<T>(): D1Result<T> {
    const executed = this.engine.execute(this.query, this.parameters);
    return buildResult<T>(executed.rows, executed.meta);
  }

  async first<T = unknown>(columnName?: string): Promise<T | null> {
    const row: unknown = this.engine.execute(this.query, this.parameters).rows[0];
    if (typeof row !== 'object' || row === null) return null;
    if (columnName === undefined) return row as T;
    if (!(columnName in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${columnName})`);
    return readColumn(row, columnName) as T;
  }

  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.runNow<T>();
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.runNow<T>();
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    const executed = this.engine.execute(this.query, this.parameters, true);
    const rows = executed.rows as T[];
    return options?.columnNames ? [executed.columns, ...rows] : rows;
  }
}

function runBatch<T>(engine: SqliteEngine, statements: readonly D1PreparedStatement[]): D1Result<T>[] {
  const own = statements.map((statement) => {
    if (!(statement instanceof SqliteD1Statement)) throw buildD1Error('batch() takes statements prepared on this database.');
    return statement;
  });
  if (own.length === 0) return [];
  return engine.runTransaction(() => own.map((statement) => statement.runNow<T>()));
}

/** node:sqlite is synchronous, so a batch runs start to end with no other request in between. */
export class SqliteD1Database implements D1Database {
  private readonly engine: SqliteEngine;

  constructor(sqlite: DatabaseSync) {
    this.engine = new SqliteEngine(sqlite);
  }

  prepare(query: string): D1PreparedStatement {
    return new SqliteD1Statement(this.engine, query);
  }

  async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return runBatch<T>(this.engine, statements);
  }

  async exec(query: string): Promise<D1ExecResult> {
    const started = performance.now();
    this.engine.executeScript(query);
    const count = query.split(';').filter((part) => part.trim() !== '').length;
    return { count, duration: performance.now() - started };
  }

  /**
   * One local copy (no replicas): every session reads the latest data, whatever its constraint or bookmark; its
   * bookmark is the latest commit's.
   */
  withSession(): D1DatabaseSession {
    return {
      prepare: (query) => this.prepare(query),
      batch: (statements) => this.batch(statements),
      getBookmark: () => this.engine.readBookmark(),
    };
  }

  async dump(): Promise<ArrayBuffer> {
    throw buildD1Error('dump() is not supported (deprecated in D1).');
  }
}
