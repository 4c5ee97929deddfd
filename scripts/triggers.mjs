#!/usr/bin/env node
// The generated triggers (src/resources/triggers/): the rule, count and text-search triggers of migrations/tenant/
// come from the descriptions.
// - `npm run triggers`: when the descriptions need other triggers than the migrations create, writes the migration
//   that drops and creates them (a new drizzle-kit custom migration, so the journal stays in step).
// - `npm run triggers:check` (run by `npm run lint`): fails when a new migration is due, or when the last generated
//   migration is not the generator's output byte for byte (as `types:check` does for `wrangler types`).
// The generator is TypeScript over the application's descriptions: it runs under Deno (the devDependency), which
// loads the sources as the Deno platform does.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDenoEnv, resolveDenoExecutable } from './deno-bin.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = path.join(root, 'migrations/tenant');
const check = process.argv.includes('--check');

function readMigrations() {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(folder, name), 'utf8') }));
}

/** The generator's answer for `files` ({ migration?, problems }). */
function askGenerator(files) {
  const tool = pathToFileURL(path.join(root, 'src/resources/trigger-tool.ts')).href;
  const code = [
    `import { runTriggerTool } from ${JSON.stringify(tool)};`,
    'const files = JSON.parse(await new Response(Deno.stdin.readable).text());',
    "console.log('\\n' + JSON.stringify(runTriggerTool(files)));",
  ].join('\n');
  const result = spawnSync(resolveDenoExecutable(), ['eval', '--unstable-sloppy-imports', '--ext=ts', code], {
    cwd: root,
    input: JSON.stringify(files),
    encoding: 'utf8',
    env: buildDenoEnv({}),
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    process.exit(1);
  }
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

const files = readMigrations();
const answer = askGenerator(files);
if (check) {
  for (const problem of answer.problems) console.error(problem);
  if (answer.problems.length > 0) process.exit(1);
  console.log('The generated triggers of migrations/tenant/ are up to date.');
} else if (answer.migration === undefined) {
  console.log('The migrations already create every generated trigger: nothing to write.');
} else {
  const before = new Set(files.map((file) => file.name));
  const drizzle = spawnSync('npx', ['drizzle-kit', 'generate', '--custom', '--name=triggers'], { cwd: root, stdio: 'inherit' });
  if (drizzle.status !== 0) process.exit(drizzle.status ?? 1);
  const created = readMigrations().filter((file) => !before.has(file.name));
  if (created.length !== 1) {
    console.error(`Expected drizzle-kit to create one migration, found: ${created.map((file) => file.name).join(', ') || 'none'}.`);
    process.exit(1);
  }
  writeFileSync(path.join(folder, created[0].name), answer.migration);
  console.log(`Wrote migrations/tenant/${created[0].name}: the generated triggers. Commit it with its meta/ snapshot and journal entry.`);
}
