/** The Deno test run's server (test/deno/server.ts starts it): the application plus the test bindings over HTTP. */
import { serveDeno } from '../../src/deno-server';
import { requireDenoRuntime } from '../../src/runtime/deno/runtime';
import { handleTestBinding } from './test-bindings';

try {
  await serveDeno(handleTestBinding);
} catch (error) {
  console.error(`The Deno test server could not start: ${error instanceof Error ? error.message : String(error)}`);
  requireDenoRuntime().exit(1);
}
