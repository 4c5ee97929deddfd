import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { configDefaults, defineConfig } from 'vitest/config';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export default defineConfig(async () => {
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
      // Node-only tooling checks (test/tooling/) run in the Deno run (vitest.deno.config.ts).
      exclude: [...configDefaults.exclude, 'test/tooling/**'],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      // Every request writes a log line (src/http/request-log.ts): show console output of failing tests only.
      silent: 'passed-only' as const,
    },
  };
});
