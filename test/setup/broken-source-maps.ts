/**
 * A Vite plugin for the test runs: loads a dependency's modules without their `sourceMappingURL` comment when its
 * published maps point outside the package or to files it does not ship (itty-router's and saxes' point to their unpublished src/,
 * standardwebhooks' to missing sources), which Vite would report once per run ("Sourcemap for ... points to ..."). Stack traces inside those modules
 * then show the bundled file, which is what the maps could not improve on anyway.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

export function dropBrokenSourceMaps(packages: readonly string[]): Plugin {
  const folders = packages.map((name) => `/node_modules/${name}/`);
  return {
    name: 'drop-broken-source-maps',
    enforce: 'pre',
    load(id) {
      const file = id.split('?')[0] ?? id;
      if (!/\.m?js$/.test(file) || !folders.some((folder) => file.includes(folder))) return null;
      return readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    },
  };
}
