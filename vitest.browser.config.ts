/**
 * The browser test (`npm run test:browser`, not part of `npm test`: it needs Chromium, see
 * scripts/install-chromium.sh): test/browser/ drives /docs in Chromium against `npm start` and
 * `npm run start:deno`.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'browser',
    environment: 'node',
    include: ['test/browser/**/*.test.ts'],
    fileParallelism: false,
    hookTimeout: 150_000,
    testTimeout: 60_000,
  },
});
