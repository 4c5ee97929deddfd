/**
 * The Deno test run (`npm run test:deno`): the HTTP integration tests (test/integration/) against the
 * API served by Deno (src/deno.ts), one Deno server with a fresh database per test file. `cloudflare:test`
 * is a shim whose SELF.fetch goes to that server. Files named *.workers.test.ts need Workers-only APIs
 * (runInDurableObject, createScheduledController, ...) and run in the Workers run only. test/tooling/ holds
 * Node-only checks (OpenAPI validation, generated client types) against the same Deno server.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { buildDocsAssets } from './scripts/docs-assets.mjs';
import { dropBrokenSourceMaps } from './test/setup/broken-source-maps.js';

// The Deno server serves public/ (static assets, built from npm packages, never committed).
buildDocsAssets();

export default defineConfig({
  plugins: [dropBrokenSourceMaps(['itty-router'])],
  resolve: {
    alias: {
      'cloudflare:test': fileURLToPath(new URL('./test/deno/cloudflare-test.ts', import.meta.url)),
      'cloudflare:workers': fileURLToPath(new URL('./test/deno/cloudflare-workers.ts', import.meta.url)),
    },
  },
  test: {
    name: 'deno',
    environment: 'node',
    pool: 'forks',
    include: ['test/integration/**/*.test.ts', 'test/tooling/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/integration/**/*.workers.test.ts'],
    setupFiles: ['./test/deno/setup.ts'],
    globalSetup: ['./test/setup/webhook-receiver.ts', './test/setup/doh-resolver.ts'],
    silent: 'passed-only',
    hookTimeout: 60_000,
    testTimeout: 15_000,
  },
});
