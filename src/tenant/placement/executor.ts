/**
 * The one executor of a tenant/org's statements: it finds the tenant/org's database (the isolate's cache, else the
 * directory; the first write places it), runs every batch there as the kind its caller declares (`read`,
 * `residentRead`, `write`), in the request's D1 session (bookmarks, replicas), counts the round trips, and answers each
 * statement's rows mapped to fields. It is not a D1 database: drizzle builds the statements (src/db/sql.ts), the
 * executor runs them. Every batch is ONE D1 batch `[residency guard, ...statements]`, so the database that answers
 * also says whether it holds the tenant/org, at no extra round trip:
 *
 * - reads: `SELECT state FROM tenant_residency ...` comes back with the rows. `active` or `moving`: the answer
 *   stands. Anything else (moved away, copy arriving, never here): nothing was written, so the placement is read
 *   again from the directory and the same statements run on the right database.
 * - writes: `INSERT INTO tenant_write_guard ...` aborts the whole transaction unless the state is `active`. While
 *   a move copies (`moving`) the write waits for the move in the tenant/org's coordinator, then runs on the new
 *   database; if the move takes too long it is answered 503 with Retry-After. Never lost, never applied twice.
 *
 * Reads declared `residentRead` carry the residency condition themselves (placement/guard.ts) and run alone: a row
 * proves residency; an empty answer is then asked again as above. Write batches end with the watchers' reads
 * (`WriteWatcher`: e.g. the subscriptions behind, for webhook deliveries): their rows reach the watcher once the batch
 * has committed, at no extra round trip.
 */
import type { BatchKind, TenantScope } from '../../db/client';
import { ApiError } from '../../errors/api-error';
import type { BoundStatement } from '../../db/sql';
import type { DatabaseSet } from '../d1/databases';
import type { RoundTripMeter } from '../d1/meter';
import type { WriteWatcher } from '../d1/watch';
import { advanceSession } from './bookmark';
import type { ReadSession } from './bookmark';
import { forgetPlacement, readCachedPlacement, rememberPlacement } from './cache';
import { ensureResidency, findPlacement, placeTenant } from './directory';
import { isReadable, readRefusal, READ_GUARD, WRITE_GUARD } from './guard';

interface TenantExecutorOptions {
  readonly scope: TenantScope;
  readonly databases: DatabaseSet;
  readonly meter?: RoundTripMeter;
  /** The request's or command's read session; absent: every statement goes to the primary. */
  readonly session?: ReadSession;
  /** Reads appended to every write batch; each one's rows go to its `onCommit` once the batch has committed. */
  watchers(): readonly WriteWatcher[];
  /** When given, every `write` batch is refused with its error before it reaches D1 (an atomic group's member). */
  refuseWrites?(): Error;
  /** Resolves when no move of the tenant/org is under way (true), or false when it waited too long. */
  waitForMove(): Promise<boolean>;
  now(): Date;
}

type Handle = D1Database | D1DatabaseSession;

interface Outcome {
  readonly results?: D1Result[];
  readonly refusal?: 'moving' | 'not_resident';
}

/** Attempts of one batch: a stale placement, a move finishing, a replica behind: each costs one more. */
const MAX_ATTEMPTS = 4;
const RETRY_AFTER_SECONDS = 5;

function buildUnavailableError(scope: TenantScope): ApiError {
  return new ApiError('ServiceUnavailable', `${scope.tenantKey}/${scope.orgKey} is being moved to another database; retry shortly.`, {
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  });
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

/** Each statement's rows, mapped to its fields (D1 answers rows as objects, columns in order). */
function mapRows(statements: readonly BoundStatement<unknown>[], results: readonly D1Result[]): unknown[][] {
  return statements.map((statement, index) =>
    (results[index]?.results ?? []).map((row) => statement.mapRow(Object.values(row as Record<string, unknown>))),
  );
}

export class TenantExecutor {
  /** The D1 session (or binding) of the database the last batch ran on. */
  private connection: { database: string; handle: Handle; opened: ReadSession['bookmark'] } | null = null;

  constructor(private readonly options: TenantExecutorOptions) {}

  get scope(): TenantScope {
    return this.options.scope;
  }

  /** The read session's bookmark (`x-d1-bookmark`), or null before the first round trip. */
  readonly bookmark = (): string | null => this.options.session?.bookmark?.value ?? null;

  /** Runs `statements` as one D1 batch of the declared `kind`; answers each statement's rows, mapped. */
  async run(kind: BatchKind, statements: readonly BoundStatement<unknown>[]): Promise<unknown[][]> {
    if (statements.length === 0) return [];
    return mapRows(statements, await this.execute(kind, statements));
  }

  private count(roundTrips = 1): void {
    if (this.options.meter) this.options.meter.roundTrips += roundTrips;
  }

  private binding(name: string): D1Database {
    const binding = name === '' ? undefined : this.options.databases.tenants.get(name);
    if (!binding) throw new Error(`The tenant database ${name} is not bound.`);
    return binding;
  }

  /** The tenant/org's database: cached, else from the directory (placing it on a write); null: unplaced read. */
  private async resolve(writes: boolean, fresh: boolean): Promise<string | null> {
    const { scope, databases } = this.options;
    const cached = fresh ? undefined : readCachedPlacement(scope);
    // A bookmark of another database than the cached one may come from after a move: ask the directory.
    const bookmark = this.options.session?.bookmark;
    if (cached !== undefined && (!bookmark || bookmark.database === cached)) return cached;
    const meter = this.options.meter;
    const placement =
      (await findPlacement(databases.directory, scope, meter)) ??
      (writes ? await placeTenant(databases, scope, this.options.now(), meter) : null);
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

  private async runGuarded(
    database: string,
    calls: readonly BoundStatement<unknown>[],
    writes: boolean,
    primary: boolean,
  ): Promise<Outcome> {
    const { scope } = this.options;
    const handle = this.connect(database, primary);
    const guard = handle.prepare(writes ? WRITE_GUARD : READ_GUARD).bind(scope.tenantKey, scope.orgKey);
    const statements = calls.map((call) => handle.prepare(call.sql).bind(...call.params));
    const watchers = writes ? this.options.watchers() : [];
    const watches = watchers.map((watcher) => handle.prepare(watcher.sql).bind(...watcher.params));
    try {
      this.count();
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

  /** Reads on `database` as they are, without the guard statement (a replica may answer). */
  private async runUnguarded(database: string, calls: readonly BoundStatement<unknown>[]): Promise<D1Result[]> {
    const handle = this.connect(database, false);
    this.count();
    const results = await handle.batch(calls.map((call) => handle.prepare(call.sql).bind(...call.params)));
    this.observe(database, handle);
    return results;
  }

  /**
   * Reads that guard themselves (`residentRead`) on the cached placement, without the guard statement: answers their
   * results when every one has a row (proof of residency), else null (the guarded batch decides).
   */
  private async runSelfGuarded(calls: readonly BoundStatement<unknown>[]): Promise<D1Result[] | null> {
    const database = readCachedPlacement(this.options.scope);
    const bookmark = this.options.session?.bookmark;
    if (database === undefined || (bookmark && bookmark.database !== database)) return null;
    const results = await this.runUnguarded(database, calls);
    return results.every((result) => result.results.length > 0) ? results : null;
  }

  private async execute(kind: BatchKind, calls: readonly BoundStatement<unknown>[]): Promise<D1Result[]> {
    const { scope } = this.options;
    const writes = kind === 'write';
    if (writes && this.options.refuseWrites) throw this.options.refuseWrites();
    if (kind === 'residentRead') {
      const results = await this.runSelfGuarded(calls);
      if (results) return results;
    }
    let fresh = false;
    let primary = false;
    let last: string | null = null;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const database = await this.resolve(writes, fresh);
      // An unplaced tenant/org has no rows anywhere: its reads run unguarded on the first tenant database.
      if (database === null) return this.runUnguarded(this.options.databases.names[0] ?? '', calls);
      if (database === last && !primary && !writes && this.options.session) primary = true;
      else if (database === last) await ensureResidency(this.binding(database), scope, this.options.now(), this.options.meter);
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
