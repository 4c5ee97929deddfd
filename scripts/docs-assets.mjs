#!/usr/bin/env node
// Builds public/, the static assets of the API reference (/docs), from npm packages: never committed, made
// again by `npm start`, `npm run start:deno`, the test configs and `npm run deploy` (`npm run assets` alone).
//   public/assets/<name>.<content hash>.<ext>  Swagger UI (swagger-ui-dist) and the page's own script and styles
//   public/_headers                            one year of immutable caching for each file of /assets/ (names change
//                                              with content; a missing file's 404 is not cached)
//   public/docs-assets.json                    the hashed names, read by GET /docs (src/openapi/docs-assets.ts)
//   public/licenses/swagger-ui-dist/           its licence and notices (Apache-2.0)
// Idempotent and safe to run concurrently: a file is written (atomically) only when its content changed.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
const pageDir = join(root, 'src/openapi/docs-ui');

export const PUBLIC_DIR = join(root, 'public');
export const ASSETS_PREFIX = '/assets/';
export const MANIFEST_NAME = 'docs-assets.json';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** The files /docs loads, by role: [source file, served base name]. */
const SOURCES = {
  swaggerScript: [join(swaggerDir, 'swagger-ui-bundle.js'), 'swagger-ui-bundle.js'],
  swaggerStyle: [join(swaggerDir, 'swagger-ui.css'), 'swagger-ui.css'],
  pageScript: [join(pageDir, 'docs-page.js'), 'docs-page.js'],
  pageStyle: [join(pageDir, 'docs-page.css'), 'docs-page.css'],
  icon: [join(swaggerDir, 'favicon-32x32.png'), 'favicon.png'],
};

const LICENSES = ['LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt'];

/** Source maps are not shipped: drop the comment that would make developer tools ask for one. */
function stripSourceMap(name, content) {
  if (!/\.(js|css)$/.test(name)) return content;
  return Buffer.from(content.toString('utf8').replace(/\n?\/[/*]# sourceMappingURL=\S+?(\s*\*\/)?\s*$/, '\n'));
}

function hashedName(name, content) {
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 16);
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
}

function writeIfChanged(path, content) {
  if (existsSync(path) && readFileSync(path).equals(content)) return false;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
  return true;
}

/** Builds public/ and returns the manifest ({ role: "/assets/<hashed name>" }). */
export function buildDocsAssets() {
  const manifest = {};
  const kept = new Set();
  for (const [role, [source, name]] of Object.entries(SOURCES)) {
    const content = stripSourceMap(name, readFileSync(source));
    const file = hashedName(name, content);
    writeIfChanged(join(PUBLIC_DIR, 'assets', file), content);
    manifest[role] = `${ASSETS_PREFIX}${file}`;
    kept.add(file);
  }
  // Earlier builds' files (another version): only names this build did not make, never a file being written.
  for (const file of readdirSync(join(PUBLIC_DIR, 'assets'))) {
    if (!kept.has(file) && !file.endsWith('.tmp')) rmSync(join(PUBLIC_DIR, 'assets', file), { force: true });
  }
  for (const file of LICENSES) writeIfChanged(join(PUBLIC_DIR, 'licenses/swagger-ui-dist', file), readFileSync(join(swaggerDir, file)));
  // One rule per file built (not `/assets/*`): a missing asset's 404 must not be cached for a year.
  const headers = [...kept]
    .sort()
    .map((file) => `${ASSETS_PREFIX}${file}\n  Cache-Control: ${IMMUTABLE_CACHE}\n  X-Content-Type-Options: nosniff\n`)
    .join('');
  writeIfChanged(join(PUBLIC_DIR, '_headers'), Buffer.from(headers));
  writeIfChanged(join(PUBLIC_DIR, MANIFEST_NAME), Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const manifest = buildDocsAssets();
  console.log(`API reference assets in ${PUBLIC_DIR}: ${Object.values(manifest).join(', ')}`);
}
