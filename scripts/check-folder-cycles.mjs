// Folder dependencies of src/ (run by `npm run lint`, so CI checks them):
// - no cycle between folders (a folder is a node; a relative import, `import type` included, is an edge);
// - no service folder (src/services/<name>/) imports another service folder: services meet only in the registry.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = path.join(root, 'src');

function listFiles(directory) {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) return listFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

const folderOf = (file) => path.relative(root, path.dirname(file));
const edges = new Map();
for (const file of listFiles(src)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'/g)) {
    const target = path.dirname(path.resolve(path.dirname(file), match[1]));
    const from = folderOf(file);
    const to = path.relative(root, target);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const targets = edges.get(from);
    if (!targets.has(to)) targets.set(to, []);
    targets.get(to).push(path.relative(root, file));
  }
}

// Tarjan's strongly connected components: any component with more than one folder is a cycle.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
let counter = 0;
function visit(node) {
  index.set(node, counter);
  low.set(node, counter);
  counter += 1;
  stack.push(node);
  onStack.add(node);
  for (const next of edges.get(node)?.keys() ?? []) {
    if (!index.has(next)) {
      visit(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
  }
  if (low.get(node) === index.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const node of edges.keys()) if (!index.has(node)) visit(node);

const problems = cycles.map((component) => {
  const inside = new Set(component);
  const detail = component.flatMap((from) =>
    [...(edges.get(from) ?? [])].filter(([to]) => inside.has(to)).map(([to, files]) => `    ${from} -> ${to} (${files.join(', ')})`),
  );
  return `Folder cycle between ${component.join(', ')}:\n${detail.join('\n')}`;
});

const serviceOf = (folder) => /^src\/services\/([^/]+)/.exec(folder)?.[1];
for (const [from, targets] of edges) {
  for (const [to, files] of targets) {
    const a = serviceOf(from);
    const b = serviceOf(to);
    if (a && b && a !== b)
      problems.push(`Service ${a} imports service ${b} (${files.join(', ')}): services meet only in src/services/registry.ts.`);
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(
  `No folder cycles among ${new Set([...edges.keys(), ...[...edges.values()].flatMap((targets) => [...targets.keys()])]).size} folders of src/.`,
);
