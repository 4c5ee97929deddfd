/**
 * The Deno side of the platform boundary: one SQLite file per D1 database (the directory and every tenant
 * database, each with its own migrations), one more for the coordinators' state and alarms; KV is in memory;
 * `waitUntil` work is tracked so shutdown can wait for it. The same directory, residency guard and moves as on
 * Cloudflare (src/tenant/placement/); snapshots go to `<data directory>/backups` (src/runtime/deno/backup-store.ts).
 */
import { DatabaseSync } from 'node:sqlite';
import { parseConfig } from '../../config/env';
import type { RawEnv } from '../../config/env';
import type { CommandHandlers } from '../../coordinator/commands';
import { DIRECTORY_BINDING, readDatabaseSet, TENANT_DATABASE_PREFIX } from '../../tenant/d1/databases';
import { buildPlacementOperations } from '../../tenant/placement/operations';
import { D1_MAX_PATTERN_BYTES } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { denyCoordinator, openTenantExecutor, watchWrites } from '../tenant-databases';
import { scanEveryTenantDatabase } from '../../tenant/placement/scan';
import type { TenantModel } from '../tenant-databases';
import type { DeliveryJob, DeliveryOutcome, ImportProcessor, Platform } from '../platform';
import { buildBackupOperations } from '../../tenant/backup/operations';
import { buildDirectoryBackupStore } from './backup-store';
import { LocalDeliveryQueue } from './delivery-queue';
import { LocalImportRunner } from './import-runner';
import { buildDirectoryFileStore } from './files';
import { LocalCoordinators } from './coordinator';
import { LocalLiveHubs } from './live';
import { SqliteD1Database } from './d1';
import { buildMemoryKv } from './kv';
import type { MemoryKv } from './kv';
import { applyMigrations } from './migrations';
import { requireDenoRuntime } from './runtime';
import { closePinnedProxy, fetchPinned } from './pinned-fetch';
import type { SqlMigration } from './migrations';
import { buildMemoryRateLimits } from './rate-limit';

interface DenoHostOptions {
  /** Folder of the SQLite files (created by the caller). */
  readonly dataDirectory: string;
  /** Folder of the import files (created by the caller, owner only). */
  readonly filesDirectory: string;
  /** Binding names of the tenant databases (each `TENANT_DB_<name>`), one file each. */
  readonly tenantDatabases: readonly string[];
  readonly migrations: { readonly directory: readonly SqlMigration[]; readonly tenant: readonly SqlMigration[] };
  /**
   * Configuration values by their Worker names (JWT_SECRET, JWT_JWKS_URL, JWT_ISSUER, JWT_AUDIENCE, APP_ENV,
   * RATE_LIMIT_PER_MINUTE, MOVE_STEP_QUERIES).
   */
  readonly env: RawEnv;
  /** Static assets (public/), as `Platform.readAsset` reads them. */
  readonly readAsset: Platform['readAsset'];
  /** What the coordinators run (the Durable Object's commands). */
  readonly commandHandlers: Partial<CommandHandlers>;
  /** The tenant/org tables and the services' write watchers (src/tenant-model.ts). */
  readonly model: TenantModel;
  readonly now?: () => Date;
  /** The delivery queue's consumer (the Worker's `queue` handler's work). */
  readonly deliveryConsumer?: (platform: Platform, job: DeliveryJob) => Promise<DeliveryOutcome>;
  /** What processes file imports (the Worker's import Workflow's work), run by the persisted in-process runner. */
  readonly importProcessor?: ImportProcessor;
}

export interface DenoHost {
  readonly platform: Platform;
  /** The D1-compatible databases by binding name (platform layer and test tooling only). */
  readonly bindings: ReadonlyMap<string, D1Database>;
  /** The KV namespace itself (test tooling; the application uses `platform.cache`). */
  readonly kv: MemoryKv;
  /** Migrations applied by this start, as `<file>: <migration>`. */
  readonly appliedMigrations: readonly string[];
  /** Ends every live stream (the server stops: an open stream would hold it). */
  endStreams(): void;
  /** WebSocket upgrades: the request the app gets -> the one Deno.serve gave (the only one Deno can upgrade). */
  readonly upgrades: WeakMap<Request, Request>;
  /** Waits for `waitUntil` work, queued coordinator commands and running alarms, then closes the files. */
  close(): Promise<void>;
}

const TENANT_NAME = /^TENANT_DB_[A-Z0-9_]{1,50}$/;

/** The file of a binding: `directory.sqlite`, `tenant_db_1.sqlite`, ... */
function fileOfBinding(name: string): string {
  return `${name.toLowerCase()}.sqlite`;
}

/** Owner only: the files hold every tenant's records and secrets (API client hashes, webhook signing secrets). */
const DATA_FILE_MODE = 0o600;
const DATA_DIRECTORY_MODE = 0o700;
/** The files SQLite keeps beside a database. */
const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'];

/** Whether the platform has POSIX modes (Windows has none: Deno's chmod is not implemented there). */
function hasFileModes(): boolean {
  return requireDenoRuntime().build.os !== 'windows';
}

/**
 * The data directory owner only (0700), and every file in it (0600): the ones an earlier version created with the
 * umask's modes too.
 */
function restrictDataDirectory(directory: string): void {
  if (!hasFileModes()) return;
  const deno = requireDenoRuntime();
  deno.chmodSync(directory, DATA_DIRECTORY_MODE);
  for (const entry of deno.readDirSync(directory)) {
    if (entry.isFile) deno.chmodSync(`${directory}/${entry.name}`, DATA_FILE_MODE);
  }
}

/**
 * Opens (creating it owner only, 0600) a database file. SQLite creates its -wal and -shm files with the database file's
 * mode; they are set to 0600 after opening too.
 */
function openSqlite(path: string): DatabaseSync {
  if (hasFileModes()) {
    const deno = requireDenoRuntime();
    try {
      deno.writeFileSync(path, new Uint8Array(), { createNew: true, mode: DATA_FILE_MODE });
    } catch {
      // it exists
    }
    deno.chmodSync(path, DATA_FILE_MODE);
  }
  // D1's limit on LIKE and GLOB patterns (50 bytes), so that a pattern D1 would refuse is refused here too.
  const sqlite = new DatabaseSync(path, { limits: { likePatternLength: D1_MAX_PATTERN_BYTES } });
  // One process per file (the coordinators' guarantees hold within one process): the exclusive lock
  // makes a second server on the same files fail at start instead of breaking them.
  sqlite.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA busy_timeout = 0; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;');
  if (hasFileModes()) {
    for (const suffix of SQLITE_SIDE_FILES) {
      try {
        requireDenoRuntime().chmodSync(`${path}${suffix}`, DATA_FILE_MODE);
      } catch {
        // not there
      }
    }
  }
  return sqlite;
}

function trackBackgroundWork(pending: Set<Promise<unknown>>, promise: Promise<unknown>): void {
  const tracked = promise.then(
    () => undefined,
    (error: unknown) => console.error(JSON.stringify({ level: 'error', message: 'waitUntil work failed', error: String(error) })),
  );
  pending.add(tracked);
  void tracked.finally(() => pending.delete(tracked));
}

/** Refuses binding names the Worker could not have (`TENANT_DB_<A-Z, 0-9, _>`), and none at all. */
function checkTenantDatabaseNames(names: readonly string[]): void {
  const wrong = names.filter((name) => !TENANT_NAME.test(name) || !name.startsWith(TENANT_DATABASE_PREFIX));
  if (wrong.length > 0 || names.length === 0) {
    throw new Error(
      `Tenant databases must be named ${TENANT_DATABASE_PREFIX}<A-Z, 0-9, _> (at least one): ${wrong.join(', ') || '(none)'}`,
    );
  }
}

/** The directory's file and every tenant database's, each brought to its migrations. */
function openDatabaseFiles(options: DenoHostOptions): { files: Map<string, DatabaseSync>; appliedMigrations: string[] } {
  const files = new Map<string, DatabaseSync>();
  const appliedMigrations: string[] = [];
  for (const name of [DIRECTORY_BINDING, ...options.tenantDatabases]) {
    const sqlite = openSqlite(`${options.dataDirectory}/${fileOfBinding(name)}`);
    const migrations = name === DIRECTORY_BINDING ? options.migrations.directory : options.migrations.tenant;
    appliedMigrations.push(...applyMigrations(sqlite, migrations).map((migration) => `${fileOfBinding(name)}: ${migration}`));
    files.set(name, sqlite);
  }
  return { files, appliedMigrations };
}

/** The in-process coordinators (one per tenant/org), their state in `sqlite`. */
function openLocalCoordinators(
  options: DenoHostOptions,
  parts: Pick<ConstructorParameters<typeof LocalCoordinators>[0], 'sqlite' | 'databases' | 'store' | 'now' | 'stepStatements'>,
): LocalCoordinators {
  return new LocalCoordinators({ ...parts, tables: options.model.tables, handlers: options.commandHandlers });
}

/** Waits for background work, the delivery queue and the coordinators, then closes every file. */
async function closeDenoHost(host: {
  pending: Set<Promise<unknown>>;
  deliveries: LocalDeliveryQueue;
  imports: LocalImportRunner;
  coordinators: LocalCoordinators;
  files: readonly DatabaseSync[];
}): Promise<void> {
  while (host.pending.size > 0) await Promise.all([...host.pending]);
  await host.deliveries.close();
  await host.imports.close();
  await host.coordinators.drain();
  for (const sqlite of host.files) sqlite.close();
  closePinnedProxy();
}

export function openDenoHost(options: DenoHostOptions): DenoHost {
  const config = parseConfig(options.env);
  checkTenantDatabaseNames(options.tenantDatabases);
  restrictDataDirectory(options.dataDirectory);
  const { files, appliedMigrations } = openDatabaseFiles(options);
  const bindings = new Map<string, D1Database>([...files].map(([name, sqlite]) => [name, new SqliteD1Database(sqlite)]));
  const databases = readDatabaseSet(Object.fromEntries(bindings));
  const stateFile = openSqlite(`${options.dataDirectory}/coordinators.sqlite`);
  const deliveries = new LocalDeliveryQueue(stateFile);
  const imports = new LocalImportRunner(stateFile);
  const cache = buildMemoryKv();
  const now = options.now ?? (() => new Date());
  const pending = new Set<Promise<unknown>>();
  // Snapshots: a folder of the data directory instead of the BACKUPS bucket.
  const store = buildDirectoryBackupStore(`${options.dataDirectory}/backups`);
  const coordinators = openLocalCoordinators(options, { sqlite: stateFile, databases, store, now, stepStatements: config.moveStepQueries });
  const waitUntil = (promise: Promise<unknown>) => trackBackgroundWork(pending, promise);
  const upgrades = new WeakMap<Request, Request>();
  const original = (request: Request) => upgrades.get(request) ?? request;
  const live = new LocalLiveHubs({ platform: () => base, stateOf: (scope) => coordinators.stateOf(scope), original });
  const watch = (scope: TenantScope) => watchWrites(options.model.watchers, scope, { deliveries, live, now, waitUntil });
  const parts = { databases, moves: coordinators.moves, now, watch };
  const { tables } = options.model;
  const retentionDays = config.backupRetentionDays;
  // Every invocation's bindings (no rate limits: those apply to `/api` requests only).
  const base: Platform = {
    openTenant: (request) => openTenantExecutor(parts, request),
    scanTenantDatabases: () => scanEveryTenantDatabase(databases),
    placements: buildPlacementOperations(databases, tables, coordinators.moves),
    backups: buildBackupOperations({ databases, tables, store, coordinator: coordinators.backups, retentionDays, now }),
    cache,
    config,
    coordinator: (scope, session, meter) => coordinators.findCoordinator(scope, session, meter),
    deliveries,
    live,
    files: buildDirectoryFileStore(options.filesDirectory),
    imports,
    now,
    waitUntil,
    readAsset: options.readAsset,
    // Webhook POSTs connect to the addresses the DNS rule checked (the name is not resolved again).
    pinnedFetch: fetchPinned,
  };
  coordinators.commandPlatform = denyCoordinator(base);
  coordinators.resumeAlarms();
  const rateLimits = buildMemoryRateLimits(config.rateLimitPerMinute);
  const platform: Platform = { ...base, ...(rateLimits ? { rateLimits } : {}) };
  const consume = options.deliveryConsumer;
  if (consume) deliveries.start((job) => consume(platform, job));
  if (options.importProcessor) imports.begin(platform, options.importProcessor);
  return {
    platform,
    bindings,
    kv: cache,
    appliedMigrations,
    endStreams: () => live.endAll('shutdown'),
    upgrades,
    close: () => closeDenoHost({ pending, deliveries, imports, coordinators, files: [...files.values(), stateFile] }),
  };
}
