/**
 * Applies migrations/*.sql in file-name order, each once, tracked in `d1_migrations` like
 * `wrangler d1 migrations apply` does. Each migration runs in its own transaction with foreign keys
 * off (drizzle-kit's table rebuilds expect that), and the foreign keys are checked afterwards.
 */
import type { DatabaseSync } from 'node:sqlite';
import { readColumn } from './sqlite-engine';

export interface SqlMigration {
  readonly name: string;
  readonly sql: string;
}

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

function listAppliedMigrations(sqlite: DatabaseSync): Set<string> {
  const rows = sqlite.prepare('SELECT name FROM d1_migrations').all();
  return new Set(rows.map((row) => String(readColumn(row, 'name'))));
}

function applyOne(sqlite: DatabaseSync, migration: SqlMigration): void {
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    sqlite.exec(migration.sql);
    const violations = sqlite.prepare('PRAGMA foreign_key_check').all();
    if (violations.length > 0) throw new Error(`foreign key violations: ${JSON.stringify(violations.slice(0, 5))}`);
    sqlite.prepare('INSERT INTO d1_migrations (name) VALUES (?)').all(migration.name);
    sqlite.exec('COMMIT');
  } catch (error) {
    sqlite.exec('ROLLBACK');
    throw new Error(`Migration ${migration.name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Applies the migrations not applied yet; returns their names. */
export function applyMigrations(sqlite: DatabaseSync, migrations: readonly SqlMigration[]): string[] {
  sqlite.exec(MIGRATIONS_TABLE);
  const applied = listAppliedMigrations(sqlite);
  const pending = [...migrations]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .filter((migration) => !applied.has(migration.name));
  sqlite.exec('PRAGMA foreign_keys = OFF');
  try {
    for (const migration of pending) applyOne(sqlite, migration);
  } finally {
    sqlite.exec('PRAGMA foreign_keys = ON');
  }
  return pending.map((migration) => migration.name);
}
