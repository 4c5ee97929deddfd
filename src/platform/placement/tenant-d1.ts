/**
 * The D1 database a tenant/org's handlers, commands and stores get (drizzle runs over it): it finds the tenant/org's
 * database (isolate cache, else the directory; the first write places it) and runs every statement and batch there
 * as ONE D1 batch `[residency guard, ...statements]`, so the database that answers also says whether it holds the
 * tenant/org, at no extra round trip:
 *
 * - reads: `SELECT state FROM tenant_residency ...` comes back with the rows. `active` or `moving`: the answer
 *   stands. Anything else (moved away, copy arriving, never here): nothing was written, so the placement is read
 *   again from the directory and the same statements run on the right database.
 * - writes: `INSERT INTO tenant_write_guard ...` aborts the whole transaction unless the state is `active`. While
 *   a move copies (`moving`) the write waits for the move in the tenant/org's coordinator, then runs on the new
 *   database; if the move takes too long it is answered 503 with Retry-After. Never lost, never applied twice.
 *
 * Reads that carry the residency condition themselves (guard.ts, `RESIDENT_MARK`: point reads by key or id) run
 * alone: a row proves residency; an empty answer is then asked again as above.
 *
 * Write batches end with the watchers' reads (`WriteWatcher`: e.g. the subscriptions behind, for webhook deliveries):
 * their rows reach the watcher once the batch has committed, at no extra round trip.
 *
 * With a read session (requests, commands) statements go through D1 Sessions: the first read goes to any replica
 * (GET) or the primary, or to a replica at least as fresh as the client's bookmark; writes go to the primary.
 */
import type { TenantScope } from '../../db/client';
import { ApiError } from '../../errors/api-error';
import type { DatabaseSet } from '../d1/databases';
import { meterD1 } from '../d1/meter';
import type { RoundTripMeter } from '../d1/meter';
import type { WriteWatcher } from '../d1/watch';
import { advanceSession } from './bookmark';
import type { ReadSession } from './bookmark';
import { forgetPlacement, readCachedPlacement, rememberPlacement } from './cache';
import { ensureResidency, findPlacement, placeTenant } from './directory';
import { isReadable, isReadOnly, isSelfGuarded, readRefusal, READ_GUARD, WRITE_GUARD } from './guard';

export interface TenantD1Options {
  readonly scope: TenantScope;
  readonly databases: DatabaseSet;
  readonly meter?: RoundTripMeter;
  /** The request's or command's read session; absent: every statement goes to the primary. */
  readonly session?: ReadSession;
  /** Reads appended to every write batch; each one's rows go to its `onCommit` once the batch has committed. */
  watchers(): readonly WriteWatcher[];
  /** Resolves when no move of the tenant/org is under way (true), or false when it waited too long. */
  waitForMove(): Promise<boolean>;
  now(): Date;
}

interface Call {
  readonly sql: string;
  readonly params: readonly unknown[];
}

type Handle = D1Database | D1DatabaseSession;

interface Outcome {
  readonly results?: D1Result[];
  readonly refusal?: 'moving' | 'not_resident';
}

/** Attempts of one batch: a stale placement, a move finishing, a replica behind: each costs one more. */
const MAX_ATTEMPTS = 4;
export const RETRY_AFTER_SECONDS = 5;

function buildUnavailableError(scope: TenantScope): ApiError {
  return new ApiError('ServiceUnavailable', `${scope.tenantKey}/${scope.orgKey} is being moved to another database; retry shortly.`, {
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  });
}

/**
 * The D1 API's row type `T` is the caller's claim about its own query, unchecked (as on Cloudflare): this cast makes
 * the same claim over the rows of the guarded batch.
 */
function claimResult<T>(result: D1Result): D1Result<T> {
  return result as D1Result<T>;
}

/** Hands each watcher its read's rows (a watcher's failure is logged: the write it watched has committed). */
function notifyWatchers(watchers: readonly WriteWatcher[], answers: readonly D1Result<Record<string, unknown>>[]): void {
  watchers.forEach((watcher, index) => {
    try {
      watcher.onCommit(answers[index]?.results ?? []);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: 'write watcher failed', error: String(error) }));
    }
  });
}

class TenantStatement implements D1PreparedStatement {
  constructor(
    private readonly db: TenantD1,
    readonly sql: string,
    readonly params: readonly unknown[],
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new TenantStatement(this.db, this.sql, values);
  }

  private async runOne<T>(): Promise<D1Result<T>> {
    const [result] = await this.db.execute([this]);
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

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
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

export class TenantD1 implements D1Database {
  /** The D1 session (or binding) of the database the last batch ran on. */
  private connection: { database: string; handle: Handle; opened: ReadSession['bookmark'] } | null = null;

  constructor(private readonly options: TenantD1Options) {}

  prepare(query: string): D1PreparedStatement {
    return new TenantStatement(this, query, []);
  }

  async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const calls = statements.map((statement) => {
      if (!(statement instanceof TenantStatement)) throw new Error('batch() takes statements prepared on this tenant database.');
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
      getBookmark: () => this.options.session?.bookmark?.value ?? null,
    };
  }

  dump(): Promise<ArrayBuffer> {
    return Promise.reject(new Error('dump() is not available on a tenant database.'));
  }

  private binding(name: string): D1Database {
    const binding = name === '' ? undefined : this.options.databases.tenants.get(name);
    if (!binding) throw new Error(`The tenant database ${name} is not bound.`);
    return this.options.meter ? meterD1(binding, this.options.meter) : binding;
  }

  private directory(): D1Database {
    const { directory } = this.options.databases;
    return this.options.meter ? meterD1(directory, this.options.meter) : directory;
  }

  /** The tenant/org's database: cached, else from the directory (placing it on a write); null: unplaced read. */
  private async resolve(writes: boolean, fresh: boolean): Promise<string | null> {
    const { scope } = this.options;
    const cached = fresh ? undefined : readCachedPlacement(scope);
    // A bookmark of another database than the cached one may come from after a move: ask the directory.
    const bookmark = this.options.session?.bookmark;
    if (cached !== undefined && (!bookmark || bookmark.database === cached)) return cached;
    const databases = { ...this.options.databases, directory: this.directory() };
    const placement =
      (await findPlacement(databases.directory, scope)) ?? (writes ? await placeTenant(databases, scope, this.options.now()) : null);
    if (placement) rememberPlacement(scope, placement.database);
    return placement?.database ?? null;
  }

  /** The handle to run on: the binding (no session: the primary), or this request's D1 session on that database. */
  private connect(database: string, primary: boolean): Handle {
    const session = this.options.session;
    const binding = this.binding(database);
    if (!session) return binding;
    const current = this.connection;
    if (!primary && current?.database === database && current.opened === session.bookmark) return current.handle;
    const bookmark = session.bookmark;
    const constraint =
      !primary && bookmark?.database === database
        ? bookmark.value
        : primary || bookmark || session.start === 'primary'
          ? 'first-primary'
          : 'first-unconstrained';
    const handle = binding.withSession(constraint);
    this.connection = { database, handle, opened: bookmark };
    return handle;
  }

  private observe(database: string, handle: Handle): void {
    const session = this.options.session;
    if (!session || !('getBookmark' in handle)) return;
    const value = handle.getBookmark();
    if (value !== null) advanceSession(session, { database, value });
    if (this.connection?.handle === handle) this.connection.opened = session.bookmark;
  }

  private async runGuarded(database: string, calls: readonly Call[], writes: boolean, primary: boolean): Promise<Outcome> {
    const { scope } = this.options;
    const handle = this.connect(database, primary);
    const guard = handle.prepare(writes ? WRITE_GUARD : READ_GUARD).bind(scope.tenantKey, scope.orgKey);
    const statements = calls.map((call) => handle.prepare(call.sql).bind(...call.params));
    const watchers = writes ? this.options.watchers() : [];
    const watches = watchers.map((watcher) => handle.prepare(watcher.sql).bind(...watcher.params));
    try {
      const [checked, ...answers] = await handle.batch<Record<string, unknown>>([guard, ...statements, ...watches]);
      this.observe(database, handle);
      const results = answers.slice(0, statements.length);
      if (writes) {
        notifyWatchers(watchers, answers.slice(statements.length));
        return { results };
      }
      if (isReadable(checked?.results[0]?.state)) return { results };
      return { refusal: 'not_resident' };
    } catch (error) {
      const refusal = readRefusal(error);
      if (refusal === null) throw error;
      return { refusal };
    }
  }

  /** An unplaced tenant/org has no rows anywhere: its reads run unguarded on the first tenant database. */
  private runUnplaced(calls: readonly Call[]): Promise<D1Result[]> {
    return this.runUnguarded(this.options.databases.names[0] ?? '', calls);
  }

  /** Reads on `database` as they are, without the guard statement (a replica may answer). */
  private async runUnguarded(database: string, calls: readonly Call[]): Promise<D1Result[]> {
    const handle = this.connect(database, false);
    const results = await handle.batch(calls.map((call) => handle.prepare(call.sql).bind(...call.params)));
    this.observe(database, handle);
    return results;
  }

  /**
   * Reads that guard themselves (guard.ts, `RESIDENT_MARK`) on the cached placement, without the guard statement:
   * answers their results when every one has a row (proof of residency), else null (the guarded batch decides).
   */
  private async runSelfGuarded(calls: readonly Call[]): Promise<D1Result[] | null> {
    const database = readCachedPlacement(this.options.scope);
    const bookmark = this.options.session?.bookmark;
    if (database === undefined || (bookmark && bookmark.database !== database)) return null;
    const results = await this.runUnguarded(database, calls);
    return results.every((result) => result.results.length > 0) ? results : null;
  }

  async execute(calls: readonly Call[]): Promise<D1Result[]> {
    const { scope } = this.options;
    const writes = calls.some((call) => !isReadOnly(call.sql));
    if (!writes && calls.every((call) => isSelfGuarded(call.sql))) {
      const results = await this.runSelfGuarded(calls);
      if (results) return results;
    }
    let fresh = false;
    let primary = false;
    let last: string | null = null;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const database = await this.resolve(writes, fresh);
      if (database === null) return this.runUnplaced(calls);
      if (database === last && !primary && !writes && this.options.session) primary = true;
      else if (database === last) await ensureResidency(this.binding(database), scope, this.options.now());
      const outcome = await this.runGuarded(database, calls, writes, primary);
      if (outcome.results) return outcome.results;
      forgetPlacement(scope);
      fresh = true;
      last = database;
      if (outcome.refusal === 'moving') {
        if (!(await this.options.waitForMove())) throw buildUnavailableError(scope);
        last = null;
        primary = false;
      }
    }
    throw buildUnavailableError(scope);
  }
}
