// Setup file of the Deno test run: every file of a worker process uses that worker's Deno server (started by the
// first file, stopped when the worker exits; test/deno/server.ts).
import { startDenoServer } from './server.js';

await startDenoServer();
