// Import dependencies of src/ (run by `npm run lint`, so CI checks them):
// - no cycle between files (a file is a node; a relative import or re-export, `import type` included, is an edge);
// - no cycle between folders (a folder is a node; an import from a file of one folder to a file of another is an edge);
// - no service folder (src/services/<name>/) imports another service folder: services meet only in the registry.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** The file a relative specifier names (`./x` is `./x.ts` or `./x/index.ts`). */
function resolveImport(file, specifier) {
  const target = path.resolve(path.dirname(file), specifier);
  if (existsSync(`${target}.ts`)) return `${target}.ts`;
  if (existsSync(path.join(target, 'index.ts'))) return path.join(target, 'index.ts');
  return target;
}

/** Adds `from -> to`, remembering the file that makes the edge. */
function addEdge(edges, from, to, file) {
  if (!edges.has(from)) edges.set(from, new Map());
  const targets = edges.get(from);
  if (!targets.has(to)) targets.set(to, []);
  targets.get(to).push(file);
}

const fileEdges = new Map();
const folderEdges = new Map();
for (const file of listFiles(src)) {
  const from = path.relative(root, file);
  fileEdges.set(from, fileEdges.get(from) ?? new Map());
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'/g)) {
    const to = path.relative(root, resolveImport(file, match[1]));
    addEdge(fileEdges, from, to, from);
    if (path.dirname(from) !== path.dirname(to)) addEdge(folderEdges, path.dirname(from), path.dirname(to), from);
  }
}

/** Tarjan's strongly connected components of `edges`: each component of more than one node is a cycle. */
function findCycles(edges) {
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
  return cycles;
}

function describeCycles(edges, label, byFile) {
  return findCycles(edges).map((component) => {
    const inside = new Set(component);
    const detail = component.flatMap((from) =>
      [...(edges.get(from) ?? [])]
        .filter(([to]) => inside.has(to))
        .map(([to, files]) => `    ${from} -> ${to}${byFile ? '' : ` (${files.join(', ')})`}`),
    );
    return `${label} cycle between ${component.join(', ')}:\n${detail.join('\n')}`;
  });
}

const problems = [...describeCycles(fileEdges, 'File', true), ...describeCycles(folderEdges, 'Folder', false)];

const serviceOf = (folder) => /^src\/services\/([^/]+)/.exec(folder)?.[1];
for (const [from, targets] of folderEdges) {
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
const folders = new Set([...folderEdges.keys(), ...[...folderEdges.values()].flatMap((targets) => [...targets.keys()])]);
console.log(`No import cycles among ${fileEdges.size} files and ${folders.size} folders of src/.`);
