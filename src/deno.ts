/** Deno entry (`npm run start:deno`): serves the application (src/deno-server.ts); see there for the environment. */
import { serveDeno } from './deno-server';
import { requireDenoRuntime } from './runtime/deno/runtime';

try {
  await serveDeno();
} catch (error) {
  console.error(`The Deno server could not start: ${error instanceof Error ? error.message : String(error)}`);
  requireDenoRuntime().exit(1);
}
