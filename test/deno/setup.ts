// Setup file of the Deno test run: every test file gets its own Deno server with a fresh database.
import { afterAll } from 'vitest';
import { startDenoServer } from './server.js';

const server = await startDenoServer();

afterAll(async () => {
  await server.stop();
});
