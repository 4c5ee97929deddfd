/**
 * The Deno side of the platform boundary: one SQLite file holds the D1 tables (the same migrations) and
 * the coordinators' state; KV is in memory; `waitUntil` work is tracked so shutdown can wait for it.
 */
import { DatabaseSync } from 'node:sqlite';
import { parseConfig } from '../../config/env';
import type { RawEnv } from '../../config/env';
import type { CommandHandlers } from '../../coordinator/commands';
import { openDrizzle } from '../../db/client';
import { meterD1 } from '../d1-meter';
import type { Platform } from '../types';
import { LocalCoordinators } from './coordinator';
import { SqliteD1Database } from './d1';
import { buildMemoryKv } from './kv';
import type { MemoryKv } from './kv';
import { applyMigrations } from './migrations';
import type { SqlMigration } from './migrations';

export interface DenoHostOptions {
  /** Path of the SQLite file (created when missing). */
  readonly databasePath: string;
  readonly migrations: readonly SqlMigration[];
  /** Configuration values by their Worker names (JWT_SECRET, JWT_JWKS_URL, JWT_ISSUER, JWT_AUDIENCE). */
  readonly env: RawEnv;
  /** Static assets (public/), as `Platform.readAsset` reads them. */
  readonly readAsset: Platform['readAsset'];
  /** What the coordinators run (the Durable Object's commands). */
  readonly commandHandlers: Partial<CommandHandlers>;
  readonly now?: () => Date;
}

export interface DenoHost {
  readonly platform: Platform;
  /** The D1-compatible database itself (platform layer and test tooling only; the application opens it through the platform). */
  readonly d1: D1Database;
  /** The KV namespace itself (test tooling; the application uses `platform.cache`). */
  readonly kv: MemoryKv;
  /** Migrations applied by this start. */
  readonly appliedMigrations: readonly string[];
  /** Waits for `waitUntil` work and queued coordinator commands, then closes the database. */
  close(): Promise<void>;
}

function openSqlite(path: string): DatabaseSync {
  const sqlite = new DatabaseSync(path);
  // One process per file (the coordinators' guarantees hold within one process): the exclusive lock
  // makes a second server on the same file fail at start instead of breaking them.
  sqlite.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA busy_timeout = 0; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;');
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

export function openDenoHost(options: DenoHostOptions): DenoHost {
  const config = parseConfig(options.env);
  const sqlite = openSqlite(options.databasePath);
  const appliedMigrations = applyMigrations(sqlite, options.migrations);
  const d1 = new SqliteD1Database(sqlite);
  const cache = buildMemoryKv();
  const now = options.now ?? (() => new Date());
  const pending = new Set<Promise<unknown>>();
  // What coordinator commands see: like inside the Durable Object, they cannot call a coordinator.
  const commandPlatform: Platform = {
    // One local database holds every tenant/org.
    openTenantDatabase: async (request) => openDrizzle(request.meter ? meterD1(d1, request.meter) : d1),
    openEveryTenantDatabase: async () => [openDrizzle(d1)],
    cache,
    config,
    coordinator: () => {
      throw new Error('A coordinator command cannot send commands to a coordinator.');
    },
    now,
    waitUntil: (promise) => trackBackgroundWork(pending, promise),
    readAsset: options.readAsset,
  };
  const coordinators = new LocalCoordinators(sqlite, commandPlatform, options.commandHandlers);
  const platform: Platform = { ...commandPlatform, coordinator: (scope) => coordinators.findCoordinator(scope) };
  return {
    platform,
    d1,
    kv: cache,
    appliedMigrations,
    async close() {
      while (pending.size > 0) await Promise.all([...pending]);
      await coordinators.drain();
      sqlite.close();
    },
  };
}
