#!/usr/bin/env node
// Checks every link of the README and docs/: a relative link names a file of the repository, and an anchor
// (`file.md#heading`, `#heading`) a heading of that file, as GitHub makes heading anchors. Links inside code blocks
// and to other sites are not checked. test/tooling/docs-links.test.ts runs it; `node scripts/check-links.mjs` too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Markdown files checked: the README and every page of docs/. */
export function listDocFiles() {
  return [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
}

/** A file's lines outside fenced code blocks, with their numbers. */
function readProse(text) {
  const lines = [];
  let fenced = false;
  for (const [index, line] of text.split('\n').entries()) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push({ number: index + 1, line });
  }
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
export function slugify(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (a repeated heading gets -1, -2, ... as on GitHub). */
export function listAnchors(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const { line } of readProse(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugify(heading[1] ?? '');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Problems of one file's links (`file:line: ...`); `read(file)` answers a repository file's text or null. */
export function checkLinks(file, text, read) {
  const problems = [];
  for (const { number, line } of readProse(text)) {
    for (const match of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] ?? '';
      if (/^[a-z]+:/i.test(target)) continue;
      const [pathPart = '', anchor] = target.split('#');
      const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
      const content = read(resolved);
      if (content === null) {
        problems.push(`${file}:${number}: ${target}: no file ${resolved}`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !listAnchors(content).has(anchor))
        problems.push(`${file}:${number}: ${target}: ${resolved} has no heading #${anchor}`);
    }
  }
  return problems;
}

/** Every problem of every checked file. */
export function checkAllLinks() {
  const read = (file) => {
    const full = path.join(root, file);
    if (!existsSync(full)) return null;
    return file.endsWith('.md') ? readFileSync(full, 'utf8') : '';
  };
  return listDocFiles().flatMap((file) => checkLinks(file, read(file) ?? '', read));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkAllLinks();
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`Every link and anchor of ${listDocFiles().length} files resolves.`);
}
