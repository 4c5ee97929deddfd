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
import type { CoordinatorState } from '../../coordinator/commands';
import { CommandLanes } from '../../coordinator/lanes';
import type { Coordinator, CoordinatorCommand, Platform } from '../types';

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
    private readonly statements: CoordinatorStatements,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = this.statements.select.all(this.name, key)[0] as { value: Uint8Array } | undefined;
    return row ? (deserialize(row.value) as T) : undefined;
  }

  async put(key: string, value: unknown): Promise<void> {
    this.statements.upsert.all(this.name, key, serialize(value));
  }

  async delete(key: string): Promise<void> {
    this.statements.remove.all(this.name, key);
  }

  async list<T>(prefix: string, end: string, limit: number): Promise<Map<string, T>> {
    const rows = this.statements.range.all(this.name, prefix, end, limit) as { key: string; value: Uint8Array }[];
    return new Map(rows.filter((row) => row.key.startsWith(prefix)).map((row) => [row.key, deserialize(row.value) as T]));
  }
}

interface CoordinatorStatements {
  readonly select: StatementSync;
  readonly upsert: StatementSync;
  readonly remove: StatementSync;
  readonly range: StatementSync;
}

function cloneError(error: unknown): unknown {
  try {
    return structuredClone(error);
  } catch {
    return new Error(String(error));
  }
}

export class LocalCoordinators {
  private readonly queues = new Map<string, CommandLanes>();
  private readonly statements: CoordinatorStatements;

  /** `commandPlatform` is what commands see; it must refuse to send commands to a coordinator. */
  constructor(
    sqlite: DatabaseSync,
    private readonly commandPlatform: () => Platform,
  ) {
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
    };
  }

  private readQueue(name: string): CommandLanes {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new CommandLanes();
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async runQueued(name: string, command: CoordinatorCommand): Promise<unknown> {
    const queue = this.readQueue(name);
    const state = new SqliteCoordinatorState(name, this.statements);
    const task = () => runCommand(this.commandPlatform(), structuredClone(command), state);
    try {
      return structuredClone(await queue.dispatch(command, task));
    } catch (error) {
      // Across RPC an error keeps its message and standard type, not its class or own properties.
      throw cloneError(error);
    } finally {
      if (queue.size === 0 && this.queues.get(name) === queue) this.queues.delete(name);
    }
  }

  /** The coordinator of one tenant/org (the Durable Object named `tenantKey/orgKey` on Cloudflare). */
  readCoordinator(tenantKey: string, orgKey: string): Coordinator {
    const name = `${tenantKey}/${orgKey}`;
    return { send: async <T>(command: CoordinatorCommand) => (await this.runQueued(name, command)) as T };
  }

  /** Resolves when every queued command has finished. */
  async drain(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.drain()));
  }
}
