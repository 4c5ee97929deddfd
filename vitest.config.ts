import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { configDefaults, defineConfig } from 'vitest/config';
import { buildDocsAssets } from './scripts/docs-assets.mjs';
import { dropBrokenSourceMaps } from './test/setup/broken-source-maps.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';
/** Small move steps, so that tests of moves run through several Durable Object alarms. */
export const TEST_MOVE_STEP_QUERIES = '12';

/** Test files that read state across every tenant/org: each runs on storage of its own (see `projects` below). */
export const OWN_STORAGE_FILES = [
  'test/integration/admin.test.ts',
  'test/integration/events-retention.workers.test.ts',
  'test/integration/indicators-cron.workers.test.ts',
  'test/integration/backup-pass.workers.test.ts',
];

export default defineConfig(async () => {
  // The pool reads wrangler.toml (and .dev.vars, when `npm start` made one) once per test file: Wrangler's
  // informational lines ("Using secrets defined in .dev.vars") would repeat for every file. Warnings still show.
  process.env.WRANGLER_LOG ??= 'warn';
  // wrangler.toml's [assets] directory (public/) is built from npm packages, never committed.
  buildDocsAssets();
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations/tenant'));
  const directoryMigrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations/directory'));
  return {
    plugins: [
      dropBrokenSourceMaps(['itty-router', 'standardwebhooks', 'saxes']),
      cloudflareTest(({ inject }) => ({
        // Not workerd's --verbose: it logs every outbound fetch that fails as an "uncaught exception" with a stack, even
        // one the code catches (the webhook tests make receivers and resolvers unreachable on purpose). An exception the
        // code does not catch still fails its test (vitest reports unhandled errors), and failing tests print fully.
        verbose: false,
        main: './src/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // Rate limiting is off for the suite (its tenants share one limiter state across files); the rate limit
          // tests turn it on for their own requests.
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_DIRECTORY_MIGRATIONS: directoryMigrations,
            JWT_SECRET: TEST_JWT_SECRET,
            MOVE_STEP_QUERIES: TEST_MOVE_STEP_QUERIES,
            RATE_LIMIT_PER_MINUTE: '0',
            // Webhooks to the test receiver (http://127.0.0.1, test/setup/webhook-receiver.ts); retries without delay.
            WEBHOOKS_ALLOW_LOCAL_HTTP: 'true',
            WEBHOOK_RETRY_BASE_SECONDS: '0',
            // Webhook hosts are looked up with the test resolver (test/setup/doh-resolver.ts).
            WEBHOOKS_DNS_RESOLVER_URL: `${inject('dohResolver')}/dns-query`,
          },
        },
      })),
    ],
    test: {
      // Two projects: most files share one runtime per worker (`isolate: false`: no workerd start, module load and
      // migrations per file; every test works on a tenant/org of its own, so files do not see each other's data);
      // the files that check state across all tenant/orgs (the directory's placements, cron jobs over every
      // tenant/org) get storage of their own, as every file had before. Node-only tooling checks (test/tooling/) run
      // in the Deno run (vitest.deno.config.ts); the browser test (test/browser/) has its own run.
      projects: [
        {
          extends: true as const,
          test: {
            name: 'workers',
            include: ['test/**/*.test.ts'],
            exclude: [...configDefaults.exclude, 'test/tooling/**', 'test/browser/**', ...OWN_STORAGE_FILES],
            isolate: false,
          },
        },
        { extends: true as const, test: { name: 'workers (own storage)', include: [...OWN_STORAGE_FILES], isolate: true } },
      ],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      globalSetup: ['./test/setup/webhook-receiver.ts', './test/setup/doh-resolver.ts'],
      // Every request writes a log line (src/http/request-log.ts): show console output of failing tests only.
      silent: 'passed-only' as const,
      // A passing run prints its summary; a failing test prints in full (its errors, its console output).
      reporters: ['minimal'],
      // The heaviest tests (5,000-record batches, 50-fold races, moves under load) take 1 to 4 s alone; on a busy
      // 2-core CI machine the default 5 s made them time out. A limit, not an assertion: their checks are unchanged.
      testTimeout: 30_000,
    },
  };
});
