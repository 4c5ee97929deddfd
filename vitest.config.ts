import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { configDefaults, defineConfig } from 'vitest/config';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';
/** Small move steps, so that tests of moves run through several Durable Object alarms. */
export const TEST_MOVE_STEP_QUERIES = '12';

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations/tenant'));
  const directoryMigrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations/directory'));
  return {
    plugins: [
      cloudflareTest({
        main: './src/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_DIRECTORY_MIGRATIONS: directoryMigrations,
            JWT_SECRET: TEST_JWT_SECRET,
            MOVE_STEP_QUERIES: TEST_MOVE_STEP_QUERIES,
          },
        },
      }),
    ],
    test: {
      include: ['test/**/*.test.ts'],
      // Node-only tooling checks (test/tooling/) run in the Deno run (vitest.deno.config.ts).
      exclude: [...configDefaults.exclude, 'test/tooling/**'],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      // Every request writes a log line (src/http/request-log.ts): show console output of failing tests only.
      silent: 'passed-only' as const,
    },
  };
});
