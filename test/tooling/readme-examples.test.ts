/**
 * The examples of the README and of the docs' walk-throughs, run in order as a reader pastes them
 * (scripts/check-readme.mjs), against `npm start` on a free port with fresh local state, twice in a row: every block
 * that calls the API runs in one bash with `set -euo pipefail`, and no answer may be a 5xx or a 4xx that its block
 * does not mention, the second time as the first. The webhook example's receiver runs too, and must print a verified
 * delivery each time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllExampleBlocks, runReadmeExamples } from '../../scripts/check-readme.mjs';
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

describe('README and docs examples', () => {
  it('run in order on a fresh start, each answer as its block says, and again when pasted a second time', async () => {
    const blocks = readAllExampleBlocks();
    expect(blocks.length).toBeGreaterThan(15);
    expect(new Set(blocks.map((block) => block.file)).size).toBeGreaterThan(1);
    for (const paste of ['first', 'second']) {
      const result = await runReadmeExamples({ base: baseUrl, receiverPort: await findFreePort() });
      expect(result.problems, `${paste} paste:\n${[...result.errors.slice(-40), result.receiver].join('\n')}`).toEqual([]);
      expect(result.receiver, `${paste} paste`).toMatch(/verified: updated operations\/emailTemplates maintenance-notification/);
    }
  }, 600_000);
});
