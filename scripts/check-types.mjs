#!/usr/bin/env node
// Drift check for the committed `wrangler types` output: regenerate with the same flags and compare.
// (`wrangler types --check` reads .dev.vars, so it answers differently on a developer machine and in CI.)
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const path = 'worker-configuration.d.ts';
const committed = readFileSync(path, 'utf8');
const result = spawnSync('npx', ['wrangler', 'types', '--strict-vars=false', '--env-file', '.env.types'], { encoding: 'utf8' });
if (result.status !== 0) {
  process.stderr.write(result.stdout + result.stderr);
  process.exit(1);
}
const generated = readFileSync(path, 'utf8');
if (generated !== committed) {
  writeFileSync(path, committed);
  console.error(`${path} is out of date: run \`npm run types\` and commit the result.`);
  process.exit(1);
}
console.log(`${path} is up to date.`);
