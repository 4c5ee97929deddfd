/**
 * Static assets under Deno, as Workers `[assets]` serves them: every file of public/ at its path, for GET and
 * HEAD, before the application sees the request, with the headers that public/_headers gives its path. Loaded
 * into memory at start (a few files; restart after `npm run assets`).
 */
import type { DenoRuntime } from './runtime';

const HEADERS_FILE = '_headers';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
};

interface HeaderRule {
  readonly pattern: RegExp;
  readonly headers: readonly (readonly [string, string])[];
}

export interface StaticAssets {
  /** The asset answering this request, or undefined for the application. */
  serve(request: Request): Response | undefined;
  /** An asset by path (`Platform.readAsset`). */
  read(path: string): Response | undefined;
}

/**
 * The subset of the `_headers` format that public/_headers uses: a URL path (`*` matches anything) on a line of its
 * own, then indented `Name: value` lines.
 */
function parseHeaderRules(text: string): HeaderRule[] {
  const rules: { pattern: RegExp; headers: [string, string][] }[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line
        .trim()
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
      continue;
    }
    const separator = line.indexOf(':');
    const rule = rules[rules.length - 1];
    if (rule && separator > 0) rule.headers.push([line.slice(0, separator).trim(), line.slice(separator + 1).trim()]);
  }
  return rules;
}

async function listFiles(deno: DenoRuntime, directory: URL, prefix: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of deno.readDir(directory)) {
    if (entry.isDirectory) files.push(...(await listFiles(deno, new URL(`${entry.name}/`, directory), `${prefix}${entry.name}/`)));
    else if (entry.isFile) files.push(`${prefix}${entry.name}`);
  }
  return files;
}

function findContentType(path: string): string {
  return CONTENT_TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** Loads public/ (none: no assets, and GET /docs says how to build them). */
export async function loadStaticAssets(deno: DenoRuntime, directory: URL): Promise<StaticAssets> {
  let names: string[] = [];
  try {
    names = await listFiles(deno, directory, '');
  } catch {
    console.warn(`No static assets in ${directory.pathname}: run \`npm run assets\` to build them.`);
  }
  const files = new Map<string, { body: Uint8Array; headers: Headers }>();
  const rules = names.includes(HEADERS_FILE) ? parseHeaderRules(await deno.readTextFile(new URL(HEADERS_FILE, directory))) : [];
  for (const name of names) {
    if (name === HEADERS_FILE || name.endsWith('.tmp')) continue;
    const path = `/${name}`;
    const headers = new Headers({ 'content-type': findContentType(name) });
    for (const rule of rules) if (rule.pattern.test(path)) for (const [header, value] of rule.headers) headers.set(header, value);
    files.set(path, { body: await deno.readFile(new URL(name, directory)), headers });
  }
  const answer = (path: string, withBody: boolean): Response | undefined => {
    const file = files.get(path);
    return file ? new Response(withBody ? file.body : null, { headers: file.headers }) : undefined;
  };
  return {
    serve(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      return answer(new URL(request.url).pathname, request.method === 'GET');
    },
    read: (path) => answer(path, true),
  };
}
