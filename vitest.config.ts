import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { configDefaults, defineConfig } from 'vitest/config';
import { buildDocsAssets } from './scripts/docs-assets.mjs';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export default defineConfig(async () => {
  // wrangler.toml's [assets] directory (public/) is built from npm packages, never committed.
  buildDocsAssets();
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  return {
    plugins: [
      cloudflareTest({
        main: './src/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: { TEST_MIGRATIONS: migrations, JWT_SECRET: TEST_JWT_SECRET },
        },
      }),
    ],
    test: {
      include: ['test/**/*.test.ts'],
      // Node-only tooling checks (test/tooling/) run in the Deno run (vitest.deno.config.ts); the browser test
      // (test/browser/) has its own run (vitest.browser.config.ts).
      exclude: [...configDefaults.exclude, 'test/tooling/**', 'test/browser/**'],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      // Every request writes a log line (src/http/request-log.ts): show console output of failing tests only.
      silent: 'passed-only' as const,
    },
  };
});
