// The storage docs against migrations/directory/ and migrations/tenant/ (run by `npm run lint`, so CI checks it):
// - docs/storage-tables.md is the output of scripts/storage-tables.mjs (every table, index, view and trigger the
//   migrations leave, generated: `npm run docs:storage` writes it);
// - every table, index, view and trigger a migration creates is named there;
// - every index name docs/storage.md gives (`..._idx`, `..._uq`) exists in a migration.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderStorageTables, STORAGE_TABLES_PAGE } from './storage-tables.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const folders = ['directory', 'tenant'].map((kind) => path.join(root, 'migrations', kind));
const page = readFileSync(STORAGE_TABLES_PAGE, 'utf8');
const prose = readFileSync(path.join(root, 'docs/storage.md'), 'utf8');

const created = new Set();
for (const folder of folders) {
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.sql'))) {
    const sql = readFileSync(path.join(folder, name), 'utf8');
    for (const match of sql.matchAll(
      /CREATE\s+(?:UNIQUE\s+)?(?:VIRTUAL\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"]?(\w+)/gi,
    ))
      created.add(match[1]);
  }
}

const problems = [];
if (page !== renderStorageTables()) problems.push('docs/storage-tables.md is not the output of the migrations: run npm run docs:storage');
const undocumented = [...created].filter((name) => !new RegExp(`(?<![\\w<>])${name}(?![\\w<>])`).test(page)).sort();
if (undocumented.length > 0) problems.push(`Not named in docs/storage-tables.md: ${undocumented.join(', ')}`);
const documentedIndexes = new Set([...prose.matchAll(/(?<![\w<>])[a-z][a-z0-9_]*_(?:idx|uq)(?![\w<>])/g)].map((match) => match[0]));
const unknown = [...documentedIndexes].filter((name) => !created.has(name)).sort();
if (unknown.length > 0) problems.push(`Named in docs/storage.md but created by no migration: ${unknown.join(', ')}`);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`docs/storage-tables.md lists all ${created.size} tables, indexes, views and triggers of migrations/, as generated.`);
