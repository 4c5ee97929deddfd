// docs/storage.md against migrations/ (run by `npm run lint`, so CI checks it):
// - every table and index a migration creates is named in docs/storage.md;
// - every index name docs/storage.md gives (`..._idx`, `..._uq`) exists in a migration.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const migrations = path.join(root, 'migrations');
const docs = readFileSync(path.join(root, 'docs/storage.md'), 'utf8');

const created = new Set();
for (const name of readdirSync(migrations).filter((file) => file.endsWith('.sql'))) {
  const sql = readFileSync(path.join(migrations, name), 'utf8');
  for (const match of sql.matchAll(/CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX)\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"]?(\w+)/gi)) created.add(match[1]);
}

const named = (name) => new RegExp(`(?<![\\w<>])${name}(?![\\w<>])`).test(docs);
const undocumented = [...created].filter((name) => !named(name)).sort();
const documentedIndexes = new Set([...docs.matchAll(/(?<![\w<>])[a-z][a-z0-9_]*_(?:idx|uq)(?![\w<>])/g)].map((match) => match[0]));
const unknown = [...documentedIndexes].filter((name) => !created.has(name)).sort();

if (undocumented.length > 0) console.error(`Not named in docs/storage.md (created in migrations/): ${undocumented.join(', ')}`);
if (unknown.length > 0) console.error(`Named in docs/storage.md but created by no migration: ${unknown.join(', ')}`);
if (undocumented.length > 0 || unknown.length > 0) process.exit(1);
console.log(`docs/storage.md names all ${created.size} tables and indexes of migrations/.`);
