/**
 * The D1 object drizzle runs over for one tenant/org (`KindedD1`): each view runs its batches as one declared kind
 * (`read`, `residentRead`, `write`: src/db/client.ts) through the tenant/org's `TenantD1`, which finds the database and
 * guards every batch. A statement runs with the kind of the view that runs it: the view it was prepared on, or the
 * view whose `batch()` is given it.
 */
import type { BatchKind, KindedD1 } from '../../db/client';
import type { TenantCall } from './tenant-d1';

/** What runs a view's calls: the tenant/org's guarded database. */
export interface TenantExecutor {
  execute(kind: BatchKind, calls: readonly TenantCall[]): Promise<D1Result[]>;
  readonly bookmark: () => string | null;
}

/**
 * The D1 API's row type `T` is the caller's claim about its own query, unchecked (as on Cloudflare): this cast makes
 * the same claim over the rows of the guarded batch.
 */
function claimResult<T>(result: D1Result): D1Result<T> {
  return result as D1Result<T>;
}

/**
 * A write that reached a view that reads (a drizzle insert, update or delete with `returning` awaited directly) ran
 * without the write guard and the watchers. D1 says so in the statement's meta: the request fails loudly, so the
 * first test that runs such code finds it (writes go through the unit of work).
 */
const WRITE_AS_READ = 'A write ran on a tenant database view that reads: write through a unit of work (src/tenant/unit-of-work.ts).';

function wroteRows(result: D1Result): boolean {
  return (result.meta.rows_written ?? 0) > 0 || result.meta.changed_db === true;
}

class TenantStatement implements D1PreparedStatement {
  constructor(
    readonly view: TenantClient,
    readonly sql: string,
    readonly params: readonly unknown[],
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new TenantStatement(this.view, this.sql, values);
  }

  private async runOne<T>(): Promise<D1Result<T>> {
    const [result] = await this.view.execute([this]);
    if (!result) throw new Error('D1 answered no result for the statement.');
    return claimResult<T>(result);
  }

  async first<T = unknown>(columnName?: string): Promise<T | null> {
    if (columnName === undefined) return (await this.runOne<T>()).results[0] ?? null;
    const row = (await this.runOne<Record<string, unknown>>()).results[0];
    if (row === undefined) return null;
    if (!(columnName in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${columnName})`);
    // The caller's claim about the column's type, as above.
    return row[columnName] as T;
  }

  /** `run()` is D1's call for a statement that changes: it is refused on a view that only reads (write through the unit of work). */
  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    if (this.view.kind !== 'write')
      return Promise.reject(
        new Error('run() on a tenant database view that reads: write through a unit of work (src/tenant/unit-of-work.ts).'),
      );
    return this.runOne<T>();
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.runOne<T>();
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    // Inside a batch D1 answers rows as objects (column order kept): a statement must not name two columns alike.
    const rows = (await this.runOne<Record<string, unknown>>()).results;
    // The caller's claim about the row's shape (an array of its columns), as above.
    const arrays = rows.map((row) => Object.values(row) as T);
    return options?.columnNames === true ? [Object.keys(rows[0] ?? {}), ...arrays] : arrays;
  }
}

/** One kind's view of the tenant/org's database. */
export class TenantClient implements KindedD1 {
  private readonly views: Map<BatchKind, TenantClient>;

  constructor(
    readonly executor: TenantExecutor,
    readonly kind: BatchKind,
    views?: Map<BatchKind, TenantClient>,
  ) {
    this.views = views ?? new Map();
    this.views.set(kind, this);
  }

  as(kind: BatchKind): TenantClient {
    return this.views.get(kind) ?? new TenantClient(this.executor, kind, this.views);
  }

  async execute(calls: readonly TenantStatement[]): Promise<D1Result[]> {
    const results = await this.executor.execute(this.kind, calls);
    if (this.kind !== 'write' && results.some(wroteRows)) throw new Error(WRITE_AS_READ);
    return results;
  }

  prepare(query: string): D1PreparedStatement {
    return new TenantStatement(this, query, []);
  }

  async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const calls = statements.map((statement) => {
      if (!(statement instanceof TenantStatement) || statement.view.executor !== this.executor)
        throw new Error('batch() takes statements prepared on this tenant database.');
      return statement;
    });
    return (await this.execute(calls)).map((result) => claimResult<T>(result));
  }

  exec(): Promise<D1ExecResult> {
    return Promise.reject(new Error('exec() is not available on a tenant database: use prepared statements.'));
  }

  withSession(): D1DatabaseSession {
    return {
      prepare: (query) => this.prepare(query),
      batch: (statements) => this.batch(statements),
      getBookmark: () => this.executor.bookmark(),
    };
  }

  dump(): Promise<ArrayBuffer> {
    return Promise.reject(new Error('dump() is not available on a tenant database.'));
  }
}
