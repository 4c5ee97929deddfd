/**
 * `npm run deploy:setup` (scripts/deploy-setup.mjs): every resource wrangler.toml binds is covered (a new binding, or a
 * kind of binding the script does not know, fails here), ids are written into the config, and `--dry-run` prints the
 * plan without calling the account. It cannot run against a Cloudflare account here: the checks and creates are
 * wrangler's own commands, listed by the plan.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COVERED_SECTIONS, loadWrangler, planSetup, writeId } from '../../scripts/deploy-setup.mjs';
import { PROJECT_ROOT } from './dev-server.js';

const CONFIG = path.join(PROJECT_ROOT, 'wrangler.toml');
let raw: Record<string, unknown> = {};

beforeAll(async () => {
  const wrangler = (await loadWrangler()) as {
    experimental_readRawConfig(options: { config: string }): { rawConfig: Record<string, unknown> };
  };
  raw = wrangler.experimental_readRawConfig({ config: CONFIG }).rawConfig;
});

/** Every binding name wrangler.toml declares, read from its text: `binding = "X"` and the `name = "X"` of rate limits and Durable Objects. */
function readDeclaredBindings(text: string): string[] {
  const names: string[] = [];
  for (const block of text.split(/(?=^\[)/m)) {
    const binding = /^binding = "([^"]+)"$/m.exec(block);
    if (binding?.[1]) names.push(binding[1]);
    else if (/^\[\[(ratelimits|durable_objects\.bindings)\]\]/.test(block)) names.push(/^name = "([^"]+)"$/m.exec(block)?.[1] ?? '?');
  }
  return names.sort();
}

describe('npm run deploy:setup', () => {
  it('covers every section and every binding of wrangler.toml', () => {
    expect(Object.keys(raw).filter((section) => !COVERED_SECTIONS.includes(section))).toEqual([]);
    const plan = planSetup(raw);
    const declared = readDeclaredBindings(readFileSync(CONFIG, 'utf8'));
    expect(declared.length).toBeGreaterThan(10);
    expect(declared.filter((binding) => !plan.some((resource) => resource.binding === binding))).toEqual([]);
    // What an account must hold before a deploy: created (or found) by wrangler, ids written where the config has one.
    const made = plan
      .filter((resource) => resource.create)
      .map((resource) => `${resource.kind} ${resource.name}${resource.idKey ? ` -> ${resource.idKey}` : ''}`);
    expect(made).toEqual([
      'D1 database erp-edge-api-directory -> database_id',
      'D1 database erp-edge-api-tenants-1 -> database_id',
      'D1 database erp-edge-api-tenants-2 -> database_id',
      'KV namespace erp-edge-api-cache -> id',
      'R2 bucket erp-edge-api-backups',
      'R2 bucket erp-edge-api-import-files',
      'queue erp-edge-api-deliveries',
    ]);
    expect(plan.filter((resource) => !resource.create).map((resource) => `${resource.binding}: ${resource.note}`)).toContain(
      'COORDINATOR: created by wrangler deploy (migration v1)',
    );
  });

  it('refuses a kind of binding it does not know, and a Durable Object no migration creates', () => {
    expect(() => planSetup({ ...raw, hyperdrive: [{ binding: 'HD', id: 'x' }] })).toThrow(
      /hyperdrive, which npm run deploy:setup does not cover/,
    );
    expect(() => planSetup({ ...raw, migrations: [] })).toThrow(
      /no \[\[migrations\]\] entry creates the Durable Object class TenantCoordinator/,
    );
  });

  it('writes an id into its own block only, keeping every other line', () => {
    const text = readFileSync(CONFIG, 'utf8');
    const written = writeId(text, { section: 'd1_databases', binding: 'TENANT_DB_2', idKey: 'database_id' }, 'abc-123');
    expect(written).toContain('binding = "TENANT_DB_2"\ndatabase_name = "erp-edge-api-tenants-2"\ndatabase_id = "abc-123"');
    expect(written.replace('abc-123', '00000000-0000-0000-0000-000000000002')).toBe(text);
    const kv = writeId(text, { section: 'kv_namespaces', binding: 'CACHE', idKey: 'id' }, 'f00');
    expect(kv).toContain('binding = "CACHE"\nid = "f00"');
  });

  it('--dry-run prints one line per resource and the commands, and changes nothing', () => {
    const before = readFileSync(CONFIG, 'utf8');
    const run = spawnSync(process.execPath, ['scripts/deploy-setup.mjs', '--dry-run'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'R2 bucket erp-edge-api-import-files (IMPORT_FILES): wrangler r2 bucket info erp-edge-api-import-files; if missing: wrangler r2 bucket create erp-edge-api-import-files',
    );
    expect(run.stdout).toContain('queue erp-edge-api-deliveries (DELIVERY_QUEUE): wrangler queues info erp-edge-api-deliveries');
    expect(run.stdout.trim().split('\n')).toHaveLength(planSetup(raw).length + 1);
    expect(readFileSync(CONFIG, 'utf8')).toBe(before);
  });
});
