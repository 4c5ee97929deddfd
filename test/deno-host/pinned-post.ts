/**
 * Run under Deno by test/tooling/deno-pinned-fetch.test.ts: one POST of the Deno platform's pinned fetch
 * (src/runtime/deno/pinned-fetch.ts) to the URL given, connected to the addresses given (JSON), through
 * postToReceiver; prints the answer (status and text, or the error) as JSON.
 */
import { fetchPinned } from '../../src/runtime/deno/pinned-fetch';
import { postToReceiver } from '../../src/services/events/receiver';

const [url = '', addresses = '[]'] = (globalThis as unknown as { Deno: { args: string[] } }).Deno.args;
const answer = await postToReceiver(
  { url, body: '{"value":[]}', headers: { 'content-type': 'application/json' } },
  { pinnedFetch: fetchPinned, addresses: JSON.parse(addresses) as string[] },
);
console.log(JSON.stringify(answer));
