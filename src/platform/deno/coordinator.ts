/**
 * The per-tenant/org coordinator of the Deno platform: the Durable Object's guarantees in one process.
 * Commands of one tenant/org are ordered exactly as in the Durable Object (the same CommandLanes);
 * commands and answers are structured-cloned as across the Durable Object's RPC; the durable state lives in the
 * same SQLite file (`_deno_coordinator_state`, values in the structured-clone format). One process
 * per database file (the file is opened with an exclusive lock).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { deserialize, serialize } from 'node:v8';
import { runCommand } from '../../coordinator/commands';
import type { CommandHandlers, CommandOf, CommandResult, CommandType, Coordinator, CoordinatorState } from '../../coordinator/commands';
import { CommandLanes } from '../../coordinator/lanes';
import type { TenantScope } from '../../db/client';
import type { Platform } from '../types';
import { readColumn } from './sqlite-engine';

const STATE_TABLE = `CREATE TABLE IF NOT EXISTS _deno_coordinator_state (
  coordinator TEXT NOT NULL,
  key TEXT NOT NULL,
  value BLOB NOT NULL,
  PRIMARY KEY (coordinator, key)
) WITHOUT ROWID`;

/** The durable state of one tenant/org's coordinator (Durable Object storage on Cloudflare). */
class SqliteCoordinatorState implements CoordinatorState {
  constructor(
    private readonly name: string,
    private readonly select: StatementSync,
    private readonly upsert: StatementSync,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const value = readColumn(this.select.all(this.name, key)[0], 'value');
    // What put() stored under this key, structured-cloned; a key always holds one type of value.
    return value instanceof Uint8Array ? (deserialize(value) as T) : undefined;
  }

  async put(key: string, value: unknown): Promise<void> {
    this.upsert.all(this.name, key, serialize(value));
  }
}

function cloneError(error: unknown): unknown {
  try {
    return structuredClone(error);
  } catch {
    return new Error(String(error));
  }
}

export class LocalCoordinators {
  private readonly lanes = new Map<string, CommandLanes>();
  private readonly select: StatementSync;
  private readonly upsert: StatementSync;

  /** `commandPlatform` is what commands see; it must refuse to send commands to a coordinator. */
  constructor(
    sqlite: DatabaseSync,
    private readonly commandPlatform: Platform,
    private readonly handlers: Partial<CommandHandlers>,
  ) {
    sqlite.exec(STATE_TABLE);
    this.select = sqlite.prepare('SELECT value FROM _deno_coordinator_state WHERE coordinator = ? AND key = ?');
    this.upsert = sqlite.prepare(
      'INSERT INTO _deno_coordinator_state (coordinator, key, value) VALUES (?, ?, ?) ON CONFLICT (coordinator, key) DO UPDATE SET value = excluded.value',
    );
  }

  private lanesOf(name: string): CommandLanes {
    let lanes = this.lanes.get(name);
    if (!lanes) {
      lanes = new CommandLanes();
      this.lanes.set(name, lanes);
    }
    return lanes;
  }

  private async runQueued<K extends CommandType>(name: string, command: CommandOf<K>): Promise<CommandResult<K>> {
    const lanes = this.lanesOf(name);
    const state = new SqliteCoordinatorState(name, this.select, this.upsert);
    const task = async () => {
      const copy = structuredClone(command);
      const db = await this.commandPlatform.openTenantDatabase({ tenantKey: copy.tenantKey, orgKey: copy.orgKey });
      return runCommand(this.handlers, { db, now: this.commandPlatform.now, state }, copy);
    };
    try {
      return structuredClone(await lanes.dispatch(command, task));
    } catch (error) {
      // Across RPC an error keeps its message and standard type, not its class or own properties.
      throw cloneError(error);
    } finally {
      if (lanes.size === 0 && this.lanes.get(name) === lanes) this.lanes.delete(name);
    }
  }

  /** The coordinator of one tenant/org (the Durable Object named `tenantKey/orgKey` on Cloudflare). */
  findCoordinator(scope: TenantScope): Coordinator {
    const name = `${scope.tenantKey}/${scope.orgKey}`;
    return { send: (command) => this.runQueued(name, command) };
  }

  /** Resolves when every queued command has finished. */
  async drain(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lanes) => lanes.drain()));
  }
}
