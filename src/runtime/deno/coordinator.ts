/**
 * The per-tenant/org coordinator of the Deno platform: the Durable Object's guarantees in one process.
 * Commands of one tenant/org are ordered exactly as in the Durable Object (the same CommandLanes);
 * commands and answers (failures too) are structured-cloned as across the Durable Object's RPC; the durable state lives in a
 * SQLite file (`_deno_coordinator_state`, values in the structured-clone format), and so do alarms, which run
 * tenant/org moves (the same TenantMover as the Durable Object). One process per file (exclusive lock).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { deserialize, serialize } from 'node:v8';
import { runCommand } from '../../coordinator/commands';
import type { CommandHandlers, CommandOf, CommandResult, CommandType, Coordinator, CoordinatorState } from '../../coordinator/commands';
import { describeFailure, rebuildFailure } from '../../coordinator/failure';
import { CommandLanes } from '../../coordinator/lanes';
import type { TenantScope } from '../../db/client';
import type { DatabaseSet } from '../../tenant/d1/databases';
import { openTenantSession } from '../../tenant/session';
import type { RoundTripMeter } from '../../tenant/d1/meter';
import { advanceSession } from '../../tenant/placement/bookmark';
import type { Bookmark, ReadSession } from '../../tenant/placement/bookmark';
import type { BackupCoordinator } from '../../tenant/backup/coordinator';
import { BackupRunner } from '../../tenant/backup/runner';
import type { BackupStore } from '../../tenant/backup/store';
import { TenantMover } from '../../tenant/placement/mover';
import type { MoveCoordinator } from '../../tenant/placement/operations';
import type { TenantTable } from '../../tenant/placement/tenant-tables';
import type { Platform } from '../platform';
import { readColumn } from './sqlite-engine';

const STATE_TABLE = `CREATE TABLE IF NOT EXISTS _deno_coordinator_state (
  coordinator TEXT NOT NULL,
  key TEXT NOT NULL,
  value BLOB NOT NULL,
  PRIMARY KEY (coordinator, key)
) WITHOUT ROWID`;

/** Storage key of a coordinator's pending alarm (ms since the epoch), like a Durable Object's alarm. */
const ALARM_KEY = '__alarm';

/** The durable state of one tenant/org's coordinator (Durable Object storage on Cloudflare). */
class SqliteCoordinatorState implements CoordinatorState {
  constructor(
    private readonly name: string,
    private readonly statements: CoordinatorStatements,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const value = readColumn(this.statements.select.all(this.name, key)[0], 'value');
    return value instanceof Uint8Array ? decodeValue<T>(value) : undefined;
  }

  async put(key: string, value: unknown): Promise<void> {
    this.statements.upsert.all(this.name, key, serialize(value));
  }

  async delete(key: string): Promise<void> {
    this.statements.remove.all(this.name, key);
  }

  async list<T>(prefix: string, end: string, limit: number): Promise<Map<string, T>> {
    const entries = new Map<string, T>();
    for (const row of this.statements.range.all(this.name, prefix, end, limit)) {
      const key = readColumn(row, 'key');
      const value = readColumn(row, 'value');
      if (typeof key === 'string' && key.startsWith(prefix) && value instanceof Uint8Array) entries.set(key, decodeValue<T>(value));
    }
    return entries;
  }
}

/** What put() stored, structured-cloned back; a key (or a key prefix) always holds one type of value. */
function decodeValue<T>(bytes: Uint8Array): T {
  return deserialize(bytes) as T;
}

interface CoordinatorStatements {
  readonly select: StatementSync;
  readonly upsert: StatementSync;
  readonly remove: StatementSync;
  readonly range: StatementSync;
  /** Every coordinator's pending alarm. */
  readonly alarms: StatementSync;
}

const formatCoordinatorName = (scope: TenantScope) => `${scope.tenantKey}/${scope.orgKey}`;

interface LocalCoordinatorOptions {
  /** The file that keeps the coordinators' state and alarms. */
  readonly sqlite: DatabaseSync;
  readonly databases: DatabaseSet;
  readonly tables: readonly TenantTable[];
  readonly handlers: Partial<CommandHandlers>;
  readonly stepStatements: number;
  /** Where snapshots are kept (a directory). */
  readonly store: BackupStore;
  now(): Date;
}

/** One tenant/org's coordinator: command lanes, state, its mover, its snapshots and restores, and its alarm. */
interface LocalCoordinator {
  readonly lanes: CommandLanes;
  readonly state: SqliteCoordinatorState;
  readonly mover: TenantMover;
  readonly backups: BackupRunner;
  timer?: ReturnType<typeof setTimeout>;
  alarm?: Promise<void>;
}

export class LocalCoordinators {
  private readonly locals = new Map<string, LocalCoordinator>();
  private readonly statements: CoordinatorStatements;
  private closed = false;
  /** What commands see (set by the host once the platform exists); it refuses to send commands to a coordinator. */
  commandPlatform: Platform | undefined;

  constructor(private readonly options: LocalCoordinatorOptions) {
    const { sqlite } = options;
    sqlite.exec(STATE_TABLE);
    this.statements = {
      select: sqlite.prepare('SELECT value FROM _deno_coordinator_state WHERE coordinator = ? AND key = ?'),
      upsert: sqlite.prepare(
        'INSERT INTO _deno_coordinator_state (coordinator, key, value) VALUES (?, ?, ?) ON CONFLICT (coordinator, key) DO UPDATE SET value = excluded.value',
      ),
      remove: sqlite.prepare('DELETE FROM _deno_coordinator_state WHERE coordinator = ? AND key = ?'),
      range: sqlite.prepare(
        'SELECT key, value FROM _deno_coordinator_state WHERE coordinator = ? AND key >= ? AND key < ? ORDER BY key LIMIT ?',
      ),
      alarms: sqlite.prepare('SELECT coordinator, value FROM _deno_coordinator_state WHERE key = ?'),
    };
  }

  private findLocal(name: string): LocalCoordinator {
    let local = this.locals.get(name);
    if (!local) {
      const state = new SqliteCoordinatorState(name, this.statements);
      const host = {
        databases: this.options.databases,
        tables: this.options.tables,
        state,
        setAlarm: async (at: number) => this.setAlarm(name, at),
        now: this.options.now,
        stepStatements: this.options.stepStatements,
      };
      local = {
        lanes: new CommandLanes(),
        state,
        mover: new TenantMover(host),
        backups: new BackupRunner({ ...host, store: this.options.store }),
      };
      this.locals.set(name, local);
    }
    return local;
  }

  /** The durable state of the tenant/org's coordinator (its live streams' spent tickets, src/runtime/deno/live.ts). */
  stateOf(scope: TenantScope): CoordinatorState {
    return this.findLocal(formatCoordinatorName(scope)).state;
  }

  private async setAlarm(name: string, at: number): Promise<void> {
    const local = this.findLocal(name);
    await local.state.put(ALARM_KEY, at);
    this.scheduleAlarm(name, at);
  }

  private scheduleAlarm(name: string, at: number): void {
    const local = this.findLocal(name);
    if (local.timer !== undefined) clearTimeout(local.timer);
    if (this.closed) return;
    local.timer = setTimeout(
      () => {
        local.timer = undefined;
        local.alarm = (async () => {
          await local.state.delete(ALARM_KEY);
          await local.mover.runAlarm();
          await local.backups.runAlarm();
        })().catch((error: unknown) =>
          console.error(JSON.stringify({ level: 'error', message: 'alarm failed', coordinator: name, error: String(error) })),
        );
      },
      Math.max(0, at - Date.now()),
    );
  }

  /** Re-arms the alarms persisted by an earlier run (a move interrupted by a restart continues). */
  resumeAlarms(): void {
    for (const row of this.statements.alarms.all(ALARM_KEY)) {
      const coordinator = readColumn(row, 'coordinator');
      const value = readColumn(row, 'value');
      if (typeof coordinator === 'string' && value instanceof Uint8Array) this.scheduleAlarm(coordinator, decodeValue<number>(value));
    }
  }

  private async runQueued<K extends CommandType>(
    name: string,
    command: CommandOf<K>,
    meter: RoundTripMeter,
  ): Promise<{ result: CommandResult<K>; bookmark: Bookmark | null }> {
    const local = this.findLocal(name);
    const platform = this.commandPlatform;
    if (!platform) throw new Error('The coordinators have no platform yet.');
    const task = async () => {
      const copy = structuredClone(command);
      const session: ReadSession = { start: 'primary', bookmark: null };
      const executor = platform.openTenant({ tenantKey: copy.tenantKey, orgKey: copy.orgKey, session, meter });
      const tenant = openTenantSession({ executor, stamp: { on: platform.now().toISOString(), by: 'system' } });
      const result = await runCommand(this.options.handlers, { tenant, now: platform.now, state: local.state }, copy);
      return { result, bookmark: session.bookmark };
    };
    try {
      return structuredClone(await local.lanes.dispatch(command, task));
    } catch (error) {
      // As the Durable Object answers a failure and its stub rethrows it (src/coordinator/failure.ts).
      throw rebuildFailure(structuredClone(describeFailure(error)));
    }
  }

  /** The coordinator of one tenant/org (the Durable Object named `tenantKey/orgKey` on Cloudflare). */
  findCoordinator(scope: TenantScope, session?: ReadSession, meter?: RoundTripMeter): Coordinator {
    const name = formatCoordinatorName(scope);
    return {
      send: async (command) => {
        // The command's D1 round trips, counted as the Durable Object counts them (and added to the caller's meter).
        const counted: RoundTripMeter = { roundTrips: 0 };
        try {
          const answer = await this.runQueued(name, command, counted);
          if (session) advanceSession(session, answer.bookmark);
          return answer.result;
        } finally {
          if (meter) meter.roundTrips += counted.roundTrips;
        }
      },
    };
  }

  /** Moves run in the tenant/org's coordinator, as in the Durable Object (refused while a snapshot or restore runs). */
  readonly moves: MoveCoordinator = {
    move: async (scope, target) => {
      const local = this.findLocal(formatCoordinatorName(scope));
      const job = await local.backups.findRunning();
      if (job) return { outcome: 'conflict', target: `(a ${job.kind} runs: ${job.id})` };
      return structuredClone(await local.mover.move(scope, target));
    },
    awaitMove: async (scope, timeoutMs) => {
      const local = this.findLocal(formatCoordinatorName(scope));
      return (await local.mover.whenSettled(timeoutMs)) && (await local.backups.whenSettled(timeoutMs));
    },
  };

  /** Snapshots and restores run in the tenant/org's coordinator, as in the Durable Object. */
  readonly backups: BackupCoordinator = {
    startSnapshot: async (scope, database, id) =>
      structuredClone(await this.findLocal(formatCoordinatorName(scope)).backups.startSnapshot(scope, database, id)),
    startRestore: async (scope, plan, id) =>
      structuredClone(await this.findLocal(formatCoordinatorName(scope)).backups.startRestore(scope, structuredClone(plan), id)),
    readJob: async (scope, id) => structuredClone(await this.findLocal(formatCoordinatorName(scope)).backups.readJob(id)),
  };

  /** Stops the alarms and resolves when every queued command and running alarm has finished. */
  async drain(): Promise<void> {
    this.closed = true;
    for (const local of this.locals.values()) if (local.timer !== undefined) clearTimeout(local.timer);
    await Promise.all([...this.locals.values()].flatMap((local) => [local.lanes.drain(), local.alarm ?? Promise.resolve()]));
  }
}
