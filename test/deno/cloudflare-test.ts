/**
 * `cloudflare:test` for the Deno test run (aliased in vitest.deno.config.ts): `env.JWT_SECRET` is the
 * Deno server's secret, `env.DIRECTORY`/`env.TENANT_DB_*`/`env.CACHE`/`env.COORDINATOR` reach the Deno server's
 * databases, KV and coordinators (test/deno/remote-bindings.ts), `env.ASSETS.fetch` asks the Deno server for a static
 * asset of public/ (served at its path, as Workers `[assets]` does), and `SELF.fetch` sends the
 * request to the Deno server of this test file, keeping the URL the test used (https://api.test) through
 * X-Forwarded-Proto/-Host (a WebSocket upgrade through test/deno/websocket-client.ts). Everything Workers-only throws: tests that use it are named
 * `*.workers.test.ts` and run in the Workers runtime only.
 */
import { remoteCoordinator, remoteD1, remoteKv } from './remote-bindings.js';
import { DENO_TEST_JWT_SECRET, DENO_TEST_TENANT_DATABASES, readDenoServer } from './server.js';
import { openTestSocket } from './websocket-client.js';

function refuseWorkersOnly(name: string): never {
  throw new Error(`${name} is Workers-only: name the test file *.workers.test.ts so that only the Workers run picks it up.`);
}

const values: Record<string, unknown> = {
  JWT_SECRET: DENO_TEST_JWT_SECRET,
  DIRECTORY: remoteD1('DIRECTORY'),
  ...Object.fromEntries(DENO_TEST_TENANT_DATABASES.map((name) => [name, remoteD1(name)])),
  CACHE: remoteKv,
  COORDINATOR: remoteCoordinator,
  ASSETS: { fetch: (input: Request | string | URL, init?: RequestInit) => fetchDeno(input, init) },
};

export const env: Record<string, unknown> = new Proxy(values, {
  get: (target, name) => (typeof name === 'string' && !(name in target) ? refuseWorkersOnly(`env.${name}`) : Reflect.get(target, name)),
});

async function fetchDeno(input: Request | string | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.set('x-forwarded-proto', url.protocol.slice(0, -1));
  headers.set('x-forwarded-host', url.host);
  // A WebSocket upgrade: answered as the Workers runtime answers it (101 with `webSocket`, or the refusal).
  if (request.headers.get('upgrade')?.toLowerCase() === 'websocket')
    return openTestSocket(`${readDenoServer().baseUrl}${url.pathname}${url.search}`, headers);
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  return fetch(`${readDenoServer().baseUrl}${url.pathname}${url.search}`, {
    method: request.method,
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
  });
}

export const SELF = {
  fetch: fetchDeno,
  connect: () => refuseWorkersOnly('SELF.connect'),
};

const WORKERS_ONLY = [
  'runInDurableObject',
  'runDurableObjectAlarm',
  'evictDurableObject',
  'listDurableObjectIds',
  'reset',
  'abortAllDurableObjects',
  'evictAllDurableObjects',
  'createExecutionContext',
  'waitOnExecutionContext',
  'createScheduledController',
  'createMessageBatch',
  'getQueueResult',
  'applyD1Migrations',
  'createPagesEventContext',
  'introspectWorkflowInstance',
  'introspectWorkflow',
] as const;

const refusals = Object.fromEntries(WORKERS_ONLY.map((name) => [name, () => refuseWorkersOnly(name)]));

export const {
  runInDurableObject,
  runDurableObjectAlarm,
  evictDurableObject,
  listDurableObjectIds,
  reset,
  abortAllDurableObjects,
  evictAllDurableObjects,
  createExecutionContext,
  waitOnExecutionContext,
  createScheduledController,
  createMessageBatch,
  getQueueResult,
  applyD1Migrations,
  createPagesEventContext,
  introspectWorkflowInstance,
  introspectWorkflow,
} = refusals;
