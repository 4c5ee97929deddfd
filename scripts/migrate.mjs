#!/usr/bin/env node
// Applies the D1 migrations to every database of a Wrangler config: migrations/directory to DIRECTORY and
// migrations/tenant to every TENANT_DB_* binding (each tracks what it applied in its own d1_migrations table).
//   npm run db:migrate                      # local state in .wrangler/ (npm start does this)
//   npm run db:migrate -- --persist-to DIR  # local state in DIR (as `PERSIST_TO=DIR npm start`)
//   npm run db:migrate -- --remote          # the deployed databases (npm run deploy does this)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniflare, readD1Ids, resolvePersistRoot } from './local-runtime.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const wrangler = path.join(root, 'node_modules/wrangler/bin/wrangler.js');
export const DIRECTORY_BINDING = 'DIRECTORY';
export const TENANT_DATABASE_PREFIX = 'TENANT_DB_';

/** The config's D1 databases, checked: one DIRECTORY, at least one TENANT_DB_*, each with its migrations folder. */
export async function listD1Databases(configPath) {
  const { unstable_readConfig } = await import('wrangler');
  const databases = unstable_readConfig({ config: configPath }).d1_databases ?? [];
  const tenants = databases.filter((database) => database.binding.startsWith(TENANT_DATABASE_PREFIX));
  const directory = databases.filter((database) => database.binding === DIRECTORY_BINDING);
  const problems = [];
  if (directory.length !== 1) problems.push(`declare exactly one D1 binding ${DIRECTORY_BINDING}`);
  if (tenants.length === 0) problems.push(`declare at least one D1 binding ${TENANT_DATABASE_PREFIX}<name>`);
  for (const database of databases) {
    const expected = database.binding === DIRECTORY_BINDING ? 'migrations/directory' : 'migrations/tenant';
    const folder = path.relative(path.dirname(configPath), path.resolve(path.dirname(configPath), database.migrations_dir ?? ''));
    if (!folder.endsWith(expected)) problems.push(`${database.binding} needs migrations_dir = "${expected}"`);
  }
  if (problems.length > 0) throw new Error(`${configPath}: ${problems.join('; ')}`);
  return [...directory, ...tenants].map((database) => database.binding);
}

/** `wrangler d1 migrations apply --remote` for every database of the config (the deployed databases). */
async function applyRemoteMigrations(config, stdio) {
  for (const binding of await listD1Databases(config)) {
    const args = [wrangler, 'd1', 'migrations', 'apply', binding, '--remote', '-c', config];
    const result = spawnSync(process.execPath, args, {
      cwd: root,
      stdio,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    });
    if (result.status !== 0)
      throw new Error(`Migrations of ${binding} failed.${result.stderr ? `\n${result.stdout}\n${result.stderr}` : ''}`);
  }
}

/**
 * The local databases (what `npm start` and the bench open, scripts/local-runtime.mjs): one Miniflare (one workerd)
 * for all of them, where `wrangler d1 migrations apply --local` starts Wrangler once per database and workerd once per
 * migration file. Same bookkeeping as Wrangler: a `d1_migrations` table per database (id, name, applied_at), file
 * names in order, each file and its bookkeeping row in one batch; the statements are split as Wrangler splits them.
 * Answers the names applied per binding ({ DIRECTORY: [...], TENANT_DB_1: [...] }).
 */
async function applyLocalMigrations(config, persistTo) {
  return applyLocalMigrationFolders(config, persistTo, await listD1Databases(config));
}

/**
 * Applies the migrations of each of `bindings` (its `migrations_dir`) to the config's local databases (as above);
 * answers the names applied per binding. The bench uses it for its raw Worker's one database.
 */
export async function applyLocalMigrationFolders(config, persistTo, bindings) {
  const { unstable_readConfig } = await import('wrangler');
  const databases = (unstable_readConfig({ config }).d1_databases ?? []).filter((database) => bindings.includes(database.binding));
  const persistRoot = resolvePersistRoot(config, persistTo);
  // The runtime's own Miniflare and workerd, so the storage is the one `npm start` opens.
  const { Miniflare, convertV4MiniflareOptions } = await loadMiniflare();
  const { readD1Migrations } = await import('@cloudflare/vitest-plugin');
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: 'export default {}',
      cf: false,
      resourcePersistencePath: path.join(persistRoot, 'v3'),
      d1Databases: readD1Ids({ d1_databases: databases }),
    }),
  );
  const applied = {};
  try {
    for (const binding of bindings) {
      const database = databases.find((candidate) => candidate.binding === binding);
      if (!database) throw new Error(`${config} has no D1 binding ${binding}`);
      const table = database.migrations_table ?? 'd1_migrations';
      const folder = path.resolve(path.dirname(config), database.migrations_dir);
      const db = await mf.getD1Database(binding);
      await db
        .prepare(
          `CREATE TABLE IF NOT EXISTS ${table}(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
        )
        .run();
      const done = new Set((await db.prepare(`SELECT name FROM ${table}`).all()).results.map((row) => row.name));
      applied[binding] = [];
      for (const migration of (await readD1Migrations(folder)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (done.has(migration.name)) continue;
        try {
          await db.batch([
            ...migration.queries.map((query) => db.prepare(query)),
            db.prepare(`INSERT INTO ${table} (name) VALUES (?)`).bind(migration.name),
          ]);
        } catch (error) {
          throw new Error(`Migration ${migration.name} of ${binding} failed: ${error?.cause?.message ?? error?.message ?? error}`);
        }
        applied[binding].push(migration.name);
      }
    }
  } finally {
    await mf.dispose();
  }
  return applied;
}

/**
 * Every database's migrations: local (npm start's state, or `persistTo`) unless `remote`. Locally it answers the
 * migrations applied per binding.
 */
export async function applyAllMigrations({ config = path.join(root, 'wrangler.toml'), remote = false, persistTo, stdio = 'inherit' } = {}) {
  if (remote) return applyRemoteMigrations(config, stdio);
  return applyLocalMigrations(config, persistTo);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const remote = process.argv.includes('--remote');
    const persistAt = process.argv.indexOf('--persist-to');
    const applied = await applyAllMigrations({ remote, persistTo: persistAt > 0 ? process.argv[persistAt + 1] : undefined });
    if (!remote)
      for (const [binding, names] of Object.entries(applied))
        console.log(`${binding}: ${names.length === 0 ? 'up to date' : `applied ${names.join(', ')}`}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
