/**
 * The README's examples, run in order as a reader pastes them (scripts/check-readme.mjs), against `npm start` on a
 * free port with fresh local state, as on a first start: every block that calls the API runs in one bash with
 * `set -euo pipefail`, and no answer may be a 5xx or a 4xx that its block does not mention. The webhook example's
 * receiver runs too, and must print a verified delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExampleBlocks, runReadmeExamples } from '../../scripts/check-readme.mjs';
import { findFreePort, startDevServer } from './dev-server.js';
import type { DevServer } from './dev-server.js';

let server: DevServer | undefined;
let baseUrl = '';

beforeAll(async () => {
  server = await startDevServer('readme-examples');
  baseUrl = server.baseUrl;
}, 300_000);

afterAll(() => {
  server?.stop();
});

describe('README examples', () => {
  it('run in order on a fresh start, each answer as its block says', async () => {
    expect(readExampleBlocks().length).toBeGreaterThan(10);
    const result = await runReadmeExamples({ base: baseUrl, receiverPort: await findFreePort() });
    expect(result.problems, [...result.errors.slice(-40), result.receiver].join('\n')).toEqual([]);
    expect(result.receiver).toMatch(/verified: updated operations\/emailTemplates maintenance-notification/);
  }, 300_000);
});
