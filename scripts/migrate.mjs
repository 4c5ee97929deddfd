#!/usr/bin/env node
// Applies the D1 migrations to every database of a Wrangler config: migrations/directory to DIRECTORY and
// migrations/tenant to every TENANT_DB_* binding (each tracks what it applied in its own d1_migrations table).
//   npm run db:migrate                      # local state in .wrangler/ (npm start does this)
//   npm run db:migrate -- --remote          # the deployed databases (npm run deploy does this)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** `wrangler d1 migrations apply` for every database of the config (local unless `remote`). */
export async function applyAllMigrations({ config = path.join(root, 'wrangler.toml'), remote = false, persistTo, stdio = 'inherit' } = {}) {
  for (const binding of await listD1Databases(config)) {
    const args = [wrangler, 'd1', 'migrations', 'apply', binding, remote ? '--remote' : '--local', '-c', config];
    if (persistTo) args.push('--persist-to', persistTo);
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await applyAllMigrations({ remote: process.argv.includes('--remote') });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
