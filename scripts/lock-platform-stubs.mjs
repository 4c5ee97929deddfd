#!/usr/bin/env node
// Completes package-lock.json with the other platforms' optional binary packages (workerd, deno) when the
// registry this machine reaches does not serve them: npm then leaves them out of the lock, and `npm ci`
// refuses the lock as out of sync (npm/cli#9846). Each missing optional dependency gets an entry with its
// version, os and cpu, placed where Node would resolve it, so `npm ci` on another platform skips it.
// Run after `npm install` changes the lock: npm run lock:platforms
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;

function readPlatform(name) {
  const os = /darwin/.test(name) ? 'darwin' : /win32|windows/.test(name) ? 'win32' : /linux/.test(name) ? 'linux' : undefined;
  const cpu = /arm64|aarch64/.test(name) ? 'arm64' : /x64|-64$/.test(name) ? 'x64' : undefined;
  return os && cpu ? { os, cpu, ...(/glibc/.test(name) ? { libc: 'glibc' } : /musl/.test(name) ? { libc: 'musl' } : {}) } : undefined;
}

function resolveFrom(location, name) {
  let base = location;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (base === '') return undefined;
    const index = base.lastIndexOf('/node_modules/');
    base = index === -1 ? '' : base.slice(0, index);
  }
}

let added = 0;
for (const [location, entry] of Object.entries({ ...packages })) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const found = resolveFrom(location, name);
    if (found && packages[found].version === version) continue;
    const platform = readPlatform(name);
    if (!platform) continue;
    const target = found || location === '' ? `${location === '' ? '' : `${location}/`}node_modules/${name}` : `node_modules/${name}`;
    packages[target] = {
      version,
      cpu: [platform.cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      license: packages[found ?? '']?.license ?? entry.license,
      optional: true,
      os: [platform.os],
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} platform entries added to package-lock.json`);
