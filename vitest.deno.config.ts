/**
 * The Deno test run (`npm run test:deno`): the HTTP integration tests (test/integration/) against the
 * API served by Deno (src/deno.ts), one Deno server with fresh databases per worker process, shared by its files. `cloudflare:test`
 * is a shim whose SELF.fetch goes to that server. Files named *.workers.test.ts need Workers-only APIs
 * (runInDurableObject, createScheduledController, ...) and run in the Workers run only. test/tooling/ holds
 * Node-only checks (OpenAPI validation, generated client types) against the same Deno server.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { buildDocsAssets } from './scripts/docs-assets.mjs';
import { dropBrokenSourceMaps } from './test/setup/broken-source-maps.js';

/** Test files that read state across every tenant/org: each runs with a Deno server of its own. */
export const OWN_SERVER_FILES = ['test/integration/admin.test.ts', 'test/tooling/deno-scheduled.test.ts'];

// The Deno server serves public/ (static assets, built from npm packages, never committed).
buildDocsAssets();

export default defineConfig({
  plugins: [dropBrokenSourceMaps(['itty-router', 'standardwebhooks', 'saxes'])],
  resolve: {
    alias: {
      'cloudflare:test': fileURLToPath(new URL('./test/deno/cloudflare-test.ts', import.meta.url)),
      'cloudflare:workers': fileURLToPath(new URL('./test/deno/cloudflare-workers.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'node',
    pool: 'forks',
    // Two projects: most files share a worker process and its Deno server (test/deno/setup.ts; `isolate: false`),
    // instead of a process and a server start (migrations on fresh databases) per file; every test works on a
    // tenant/org of its own, so no file sees another's data. The files that check state across every tenant/org (the
    // directory's placements, cron jobs) get a process and a server of their own, as every file had before.
    projects: [
      {
        extends: true as const,
        test: {
          name: 'deno',
          include: ['test/integration/**/*.test.ts', 'test/tooling/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/integration/**/*.workers.test.ts', ...OWN_SERVER_FILES],
          isolate: false,
        },
      },
      { extends: true as const, test: { name: 'deno (own server)', include: [...OWN_SERVER_FILES], isolate: true } },
    ],
    setupFiles: ['./test/deno/setup.ts'],
    globalSetup: ['./test/setup/webhook-receiver.ts', './test/setup/doh-resolver.ts'],
    silent: 'passed-only',
    // A passing run prints its summary; a failing test prints in full (its errors, its console output).
    reporters: ['minimal'],
    hookTimeout: 60_000,
    testTimeout: 15_000,
  },
});
