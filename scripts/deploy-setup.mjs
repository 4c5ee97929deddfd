#!/usr/bin/env node
// npm run deploy:setup: creates (or finds) on your Cloudflare account every resource wrangler.toml binds, and writes
// their ids into wrangler.toml; run it once after `npx wrangler login`, and again after adding a binding.
//   npm run deploy:setup                 # check each resource, create the missing ones, write the ids
//   npm run deploy:setup -- --dry-run    # print the plan (resources and wrangler commands), change nothing
//   npm run deploy:setup -- --config other.toml
// D1 databases (database_id), the KV namespace (id, titled <worker name>-<binding>), R2 buckets (IMPORT_FILES,
// BACKUPS), queues (the deliveries queue) are created with wrangler's own commands; Workflows and Durable Objects
// (with their migrations) are created by `wrangler deploy`, rate limit namespaces and assets need nothing made first.
// A section of wrangler.toml this script does not know stops it (and fails test/tooling/deploy-setup.test.ts), so a
// new kind of binding cannot be forgotten here.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const wrangler = path.join(root, 'node_modules/wrangler/bin/wrangler.js');

/** Top-level sections of wrangler.toml that hold no resource of the account (settings of the Worker). */
export const SETTINGS = ['name', 'main', 'compatibility_date', 'compatibility_flags', 'triggers', 'vars', 'observability'];

/** What each resource section of wrangler.toml becomes: one entry per resource, with the wrangler commands for it. */
const PLANNERS = {
  d1_databases: (config) =>
    config.d1_databases.map((database) => ({
      kind: 'D1 database',
      binding: database.binding,
      name: database.database_name,
      section: 'd1_databases',
      idKey: 'database_id',
      id: database.database_id,
      check: ['d1', 'info', database.database_name, '--json'],
      create: ['d1', 'create', database.database_name],
    })),
  kv_namespaces: (config) =>
    config.kv_namespaces.map((namespace) => {
      const title = `${config.name}-${namespace.binding.toLowerCase().replace(/_/g, '-')}`;
      return {
        kind: 'KV namespace',
        binding: namespace.binding,
        name: title,
        section: 'kv_namespaces',
        idKey: 'id',
        id: namespace.id,
        check: ['kv', 'namespace', 'list'],
        create: ['kv', 'namespace', 'create', title],
      };
    }),
  r2_buckets: (config) =>
    config.r2_buckets.map((bucket) => ({
      kind: 'R2 bucket',
      binding: bucket.binding,
      name: bucket.bucket_name,
      check: ['r2', 'bucket', 'info', bucket.bucket_name],
      create: ['r2', 'bucket', 'create', bucket.bucket_name],
    })),
  queues: (config) => {
    const names = [
      ...(config.queues.producers ?? []).map((queue) => queue.queue),
      ...(config.queues.consumers ?? []).map((queue) => queue.queue),
    ];
    return [...new Set(names)].map((name) => ({
      kind: 'queue',
      binding: (config.queues.producers ?? []).find((queue) => queue.queue === name)?.binding ?? `consumer of ${name}`,
      name,
      check: ['queues', 'info', name],
      create: ['queues', 'create', name],
    }));
  },
  workflows: (config) =>
    config.workflows.map((workflow) => ({
      kind: 'Workflow',
      binding: workflow.binding,
      name: workflow.name,
      note: 'created by wrangler deploy (class ' + workflow.class_name + ')',
    })),
  durable_objects: (config) =>
    config.durable_objects.bindings.map((object) => ({
      kind: 'Durable Object',
      binding: object.name,
      name: object.class_name,
      note: 'created by wrangler deploy (migration ' + findMigration(config, object.class_name) + ')',
    })),
  migrations: () => [],
  ratelimits: (config) =>
    config.ratelimits.map((limit) => ({
      kind: 'rate limit',
      binding: limit.name,
      name: `namespace ${limit.namespace_id}`,
      note: 'nothing to create',
    })),
  assets: (config) => [
    {
      kind: 'static assets',
      binding: config.assets.binding,
      name: config.assets.directory,
      note: 'uploaded by wrangler deploy (npm run deploy builds them)',
    },
  ],
};

/** The `[[migrations]]` tag that creates a Durable Object class (a class without one cannot be deployed). */
function findMigration(config, className) {
  const migration = (config.migrations ?? []).find((entry) =>
    [...(entry.new_sqlite_classes ?? []), ...(entry.new_classes ?? [])].includes(className),
  );
  if (!migration) throw new Error(`wrangler.toml: no [[migrations]] entry creates the Durable Object class ${className}.`);
  return migration.tag;
}

/** The sections of wrangler.toml this script covers (a resource planner each, or a setting). */
export const COVERED_SECTIONS = [...Object.keys(PLANNERS), ...SETTINGS];

/**
 * The resources a raw wrangler.toml (as parsed: `experimental_readRawConfig`) binds, each with the wrangler commands
 * that check and create it (none for what `wrangler deploy` creates). A section it does not know is an error.
 */
export function planSetup(config) {
  const unknown = Object.keys(config).filter((section) => !COVERED_SECTIONS.includes(section));
  if (unknown.length > 0)
    throw new Error(
      `wrangler.toml has ${unknown.join(', ')}, which npm run deploy:setup does not cover: add it to scripts/deploy-setup.mjs.`,
    );
  const normalized = { ...config, queues: config.queues ?? {}, durable_objects: config.durable_objects ?? { bindings: [] } };
  return Object.entries(PLANNERS).flatMap(([section, plan]) => (config[section] === undefined ? [] : plan(normalized)));
}

/** wrangler.toml's text with `key = "value"` set in the `[[section]]` block whose binding is `binding`. */
export function writeId(text, { section, binding, idKey }, value) {
  const blocks = text.split(/(?=^\[)/m);
  const index = blocks.findIndex((block) => block.startsWith(`[[${section}]]`) && new RegExp(`^binding = "${binding}"$`, 'm').test(block));
  if (index < 0) throw new Error(`wrangler.toml: no [[${section}]] block with binding = "${binding}".`);
  const line = new RegExp(`^${idKey} = ".*"$`, 'm');
  const block = blocks[index] ?? '';
  blocks[index] = line.test(block)
    ? block.replace(line, `${idKey} = "${value}"`)
    : block.replace(/^binding = ".*"$/m, (found) => `${found}\n${idKey} = "${value}"`);
  return blocks.join('');
}

function runWrangler(args, configPath) {
  const result = spawnSync(process.execPath, [wrangler, ...args, '-c', configPath], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`, stdout: result.stdout ?? '' };
}

/** The resource's id on the account (D1: its uuid; KV: the namespace's id); null when it does not exist. R2, queues: 'exists'. */
function findResource(resource, configPath) {
  const answer = runWrangler(resource.check, configPath);
  if (resource.kind === 'KV namespace') {
    if (!answer.ok) throw new Error(`wrangler ${resource.check.join(' ')} failed:\n${answer.output}`);
    const list = JSON.parse(answer.stdout.slice(answer.stdout.indexOf('[')));
    return list.find((namespace) => namespace.title === resource.name)?.id ?? null;
  }
  if (!answer.ok) return null;
  if (resource.kind === 'D1 database') return JSON.parse(answer.stdout.slice(answer.stdout.indexOf('{'))).uuid ?? null;
  return 'exists';
}

/** Checks every resource, creates the missing ones, writes the ids into the config; answers one line per resource. */
export function applySetup(configPath, { dryRun = false, log = console.log } = {}) {
  const { experimental_readRawConfig } = requireWrangler();
  const resources = planSetup(experimental_readRawConfig({ config: configPath }).rawConfig);
  let text = readFileSync(configPath, 'utf8');
  for (const resource of resources) {
    const label = `${resource.kind} ${resource.name} (${resource.binding})`;
    if (!resource.check) {
      log(`${label}: ${resource.note}`);
      continue;
    }
    if (dryRun) {
      log(
        `${label}: wrangler ${resource.check.join(' ')}; if missing: wrangler ${resource.create.join(' ')}${resource.idKey ? `; ${resource.idKey} written` : ''}`,
      );
      continue;
    }
    let id = findResource(resource, configPath);
    if (id === null) {
      const created = runWrangler(resource.create, configPath);
      if (!created.ok) throw new Error(`wrangler ${resource.create.join(' ')} failed:\n${created.output}`);
      id = findResource(resource, configPath);
      if (id === null) throw new Error(`${label} was created but cannot be found.`);
      log(`${label}: created`);
    } else log(`${label}: exists`);
    if (resource.idKey && id !== resource.id) {
      text = writeId(text, resource, id);
      writeFileSync(configPath, text);
      log(`${label}: ${resource.idKey} = "${id}" written to ${path.basename(configPath)}`);
    }
  }
  return resources;
}

let wranglerModule;
function requireWrangler() {
  if (!wranglerModule) throw new Error('Load wrangler first (loadWrangler).');
  return wranglerModule;
}

export async function loadWrangler() {
  wranglerModule ??= await import('wrangler');
  return wranglerModule;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--config');
  const configPath = path.resolve(at > 0 ? (process.argv[at + 1] ?? '') : path.join(root, 'wrangler.toml'));
  const dryRun = process.argv.includes('--dry-run');
  await loadWrangler();
  try {
    applySetup(configPath, { dryRun });
    console.log(
      dryRun
        ? 'Dry run: nothing was checked or created.'
        : `Every resource of ${path.basename(configPath)} exists on the account. Next: npx wrangler secret put JWT_SECRET (once), then npm run deploy.`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
