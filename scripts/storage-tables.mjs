#!/usr/bin/env node
// docs/storage-tables.md, generated from migrations/directory/ and migrations/tenant/: every table with its columns,
// primary key, indexes and triggers, and every view, as the migrations leave them (applied in order: a dropped
// trigger or index is gone, an added column is there). docs/storage.md explains them; this page lists them.
//   npm run docs:storage            # writes docs/storage-tables.md
//   node scripts/storage-tables.mjs --check   # fails when the page is not the migrations' (npm run lint runs it)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const STORAGE_TABLES_PAGE = path.join(root, 'docs/storage-tables.md');
const unquote = (name) => name.replace(/[`"]/g, '');

/** The schema the migrations of one folder leave: tables (columns, key, indexes, triggers) and views. */
export function applyMigrations(files) {
  const tables = new Map();
  const views = new Map();
  const indexes = new Map();
  const triggers = new Map();
  for (const { name: file, sql } of files) {
    for (const raw of sql.split(/-->\s*statement-breakpoint|;\s*\n(?=\s*(?:CREATE|DROP|ALTER|INSERT|UPDATE|DELETE)\b)/i)) {
      const statement = raw.replace(/^\s*--[^\n]*\n/gm, '').trim();
      const table = /^CREATE TABLE\s+(?:IF NOT EXISTS\s+)?([`"]?\w+[`"]?)\s*\(([\s\S]*)\)\s*(?:WITHOUT ROWID)?\s*;?$/i.exec(statement);
      if (table) {
        const name = unquote(table[1] ?? '');
        const body = (table[2] ?? '').split('\n').map((line) => line.trim().replace(/,$/, ''));
        const columns = body.filter((line) => /^[`"]\w+[`"]\s/.test(line)).map((line) => describeColumn(line));
        const composite = body.find((line) => /^PRIMARY KEY\s*\(/i.test(line));
        const key = composite
          ? [...composite.matchAll(/[`"](\w+)[`"]/g)].map((match) => match[1])
          : columns.filter((column) => column.primary).map((column) => column.name);
        tables.set(name, { name, file, columns, key });
        continue;
      }
      const virtual = /^CREATE VIRTUAL TABLE\s+(?:IF NOT EXISTS\s+)?([`"]?\w+[`"]?)\s+USING\s+(\w+)\s*\(([\s\S]*)\)\s*;?$/i.exec(statement);
      if (virtual) {
        const name = unquote(virtual[1] ?? '');
        const columns = (virtual[3] ?? '')
          .split(',')
          .map((part) => part.trim())
          .filter((part) => /^[`"]\w+[`"]$/.test(part))
          .map((part) => ({ name: unquote(part), type: 'text', primary: false, notNull: true }));
        tables.set(name, {
          name,
          file,
          columns,
          key: ['rowid'],
          virtual: `${virtual[2]} (${(virtual[3] ?? '').match(/tokenize='([^']*)'/)?.[1] ?? ''})`,
        });
        continue;
      }
      const added = /^ALTER TABLE\s+([`"]?\w+[`"]?)\s+ADD(?:\s+COLUMN)?\s+([\s\S]+?);?$/i.exec(statement);
      if (added) tables.get(unquote(added[1] ?? ''))?.columns.push(describeColumn(added[2] ?? ''));
      const index = /^CREATE\s+(UNIQUE\s+)?INDEX\s+(?:IF NOT EXISTS\s+)?([`"]?\w+[`"]?)\s+ON\s+([`"]?\w+[`"]?)\s*\(([^)]*)\)/i.exec(
        statement,
      );
      if (index) {
        const columns = [...(index[4] ?? '').matchAll(/[`"]?(\w+)[`"]?/g)].map((match) => match[1]).join(', ');
        indexes.set(unquote(index[2] ?? ''), { table: unquote(index[3] ?? ''), unique: Boolean(index[1]), columns, file });
      }
      const trigger = /^CREATE TRIGGER\s+(?:IF NOT EXISTS\s+)?([`"]?\w+[`"]?)\s[\s\S]*?\bON\s+([`"]?\w+[`"]?)/i.exec(statement);
      if (trigger) triggers.set(unquote(trigger[1] ?? ''), { table: unquote(trigger[2] ?? ''), file });
      const view = /^CREATE VIEW\s+(?:IF NOT EXISTS\s+)?([`"]?\w+[`"]?)/i.exec(statement);
      if (view) views.set(unquote(view[1] ?? ''), { file });
      const dropped = /^DROP\s+(TABLE|INDEX|TRIGGER|VIEW)\s+(?:IF EXISTS\s+)?([`"]?\w+[`"]?)/i.exec(statement);
      if (dropped) {
        const kind = (dropped[1] ?? '').toUpperCase();
        const target = { TABLE: tables, INDEX: indexes, TRIGGER: triggers, VIEW: views }[kind];
        target?.delete(unquote(dropped[2] ?? ''));
      }
    }
  }
  return { tables, views, indexes, triggers };
}

function describeColumn(line) {
  const match = /^[`"]?(\w+)[`"]?\s+(\w+)(.*)$/.exec(line.trim()) ?? [];
  const rest = match[3] ?? '';
  return {
    name: match[1] ?? '',
    type: (match[2] ?? '').toLowerCase(),
    primary: /PRIMARY KEY/i.test(rest),
    notNull: /NOT NULL/i.test(rest),
  };
}

function readMigrations(folder) {
  const directory = path.join(root, 'migrations', folder);
  return readdirSync(directory)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(directory, name), 'utf8') }));
}

/** The Markdown of one folder's schema. */
function renderSchema(title, folder) {
  const { tables, views, indexes, triggers } = applyMigrations(readMigrations(folder));
  const lines = [`## ${title} (\`migrations/${folder}/\`)`, ''];
  for (const table of [...tables.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    lines.push(`### \`${table.name}\``, '');
    const kind = table.virtual ? `a virtual table (${table.virtual}) ` : '';
    lines.push(`Created by \`${table.file}\`, ${kind}keyed by (${table.key.map((column) => `\`${column}\``).join(', ')}).`, '');
    lines.push(
      `Columns: ${table.columns.map((column) => `\`${column.name}\` ${column.type}${column.notNull ? '' : '?'}`).join(', ')}.`,
      '',
    );
    const own = [...indexes.entries()].filter(([, index]) => index.table === table.name).sort(([a], [b]) => (a < b ? -1 : 1));
    if (own.length > 0) {
      lines.push('| index | columns |', '|---|---|');
      for (const [name, index] of own) lines.push(`| \`${name}\`${index.unique ? ' (unique)' : ''} | ${index.columns} |`);
      lines.push('');
    }
    const fired = [...triggers.entries()]
      .filter(([, trigger]) => trigger.table === table.name)
      .map(([name]) => `\`${name}\``)
      .sort();
    if (fired.length > 0) lines.push(`Triggers: ${fired.join(', ')}.`, '');
  }
  if (views.size > 0) {
    lines.push('### Views', '');
    for (const [name, view] of [...views.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const fired = [...triggers.entries()]
        .filter(([, trigger]) => trigger.table === name)
        .map(([trigger]) => `\`${trigger}\``)
        .sort();
      lines.push(`- \`${name}\` (\`${view.file}\`)${fired.length > 0 ? `; triggers ${fired.join(', ')}` : ''}`);
    }
    lines.push('');
  }
  return lines;
}

/** The whole page. */
export function renderStorageTables() {
  return [
    '# Storage: every table, index and trigger',
    '',
    'Generated from the migrations by `npm run docs:storage` (`scripts/storage-tables.mjs`; `npm run lint` fails when',
    'it is not their output). What each table is for, and how they work together: [storage.md](storage.md). A column',
    'marked `?` may be NULL.',
    '',
    ...renderSchema('Directory database', 'directory'),
    ...renderSchema('Tenant databases', 'tenant'),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = renderStorageTables();
  if (process.argv.includes('--check')) {
    const current = readFileSync(STORAGE_TABLES_PAGE, 'utf8');
    if (current !== page) {
      console.error('docs/storage-tables.md is not the output of the migrations: run npm run docs:storage');
      process.exit(1);
    }
    console.log('docs/storage-tables.md lists the migrations as they are.');
  } else {
    writeFileSync(STORAGE_TABLES_PAGE, page);
    console.log('Wrote docs/storage-tables.md.');
  }
}
