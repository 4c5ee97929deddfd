/**
 * The same application served by Deno (`npm run start:deno`): the Worker's app with the Deno platform
 * (src/platform/deno/): each D1 database (the directory and every tenant database) a local SQLite file over
 * node:sqlite, in-memory KV, in-process coordinators, and a timer for the cron trigger.
 *
 * Environment: PORT (8788), HOST (127.0.0.1), DENO_DATA_DIR (.deno-data), DENO_TENANT_DATABASES
 * (TENANT_DB_1,TENANT_DB_2), JWT_SECRET, JWT_JWKS_URL, JWT_ISSUER, JWT_AUDIENCE, MOVE_STEP_QUERIES (400),
 * CRON_INTERVAL_MINUTES (15; 0 turns the timer off),
 * TEST_SCHEDULED=1 (GET /__scheduled runs the scheduled jobs, like `wrangler dev --test-scheduled`),
 * TRUST_FORWARDED_HEADERS=1 (the request URL takes X-Forwarded-Proto/-Host, behind a trusted proxy),
 * TEST_BINDINGS=1 (test runs only: POST /__test/{d1,kv,coordinator} for the tests' `env`; never in a deployment),
 * EXIT_ON_STDIN_END=1 (stops when standard input closes: a parent that dies takes the server with it).
 */
import { publicRoutes } from './health';
import { buildApp } from './http/app';
import { startCronTimer } from './platform/deno/cron';
import { openDenoHost } from './platform/deno/host';
import type { DenoHost } from './platform/deno/host';
import { readDenoRuntime, readSqlFiles, waitForStdinEnd } from './platform/deno/runtime';
import type { DenoRuntime } from './platform/deno/runtime';
import { handleTestBinding, TEST_BINDINGS_PREFIX } from './platform/deno/test-bindings';
import { runScheduledJobs } from './scheduler';
import { scheduledJobs } from './services/jobs';
import { apiRoutes, commandHandlers } from './services/registry';
import { operatorRoutes } from './admin/routes';

const FORWARDED_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$/;

const app = buildApp(publicRoutes, apiRoutes, operatorRoutes);

/** Behind a trusted proxy: the URL the client used, from X-Forwarded-Proto and X-Forwarded-Host. */
function applyForwardedOrigin(request: Request): Request {
  const proto = request.headers.get('x-forwarded-proto');
  const host = request.headers.get('x-forwarded-host');
  if (proto === null && host === null) return request;
  const url = new URL(request.url);
  const scheme = proto === 'http' || proto === 'https' ? proto : url.protocol.slice(0, -1);
  const authority = host !== null && FORWARDED_HOST.test(host) ? host : url.host;
  const target = new URL(`${url.pathname}${url.search}`, `${scheme}://${authority}`);
  return new Request(target, { method: request.method, headers: request.headers, body: request.body, redirect: request.redirect });
}

function buildHandler(deno: DenoRuntime, host: DenoHost): (request: Request) => Promise<Response> {
  const trustForwarded = deno.env.get('TRUST_FORWARDED_HEADERS') === '1';
  const testScheduled = deno.env.get('TEST_SCHEDULED') === '1';
  const testBindings = deno.env.get('TEST_BINDINGS') === '1';
  return async (incoming) => {
    const request = trustForwarded ? applyForwardedOrigin(incoming) : incoming;
    const path = new URL(request.url).pathname;
    if (testScheduled && path === '/__scheduled') {
      await runScheduledJobs(host.platform, scheduledJobs);
      return new Response('Ran scheduled event');
    }
    if (testBindings && path.startsWith(TEST_BINDINGS_PREFIX) && request.method === 'POST')
      return handleTestBinding(request, host.platform, host.bindings);
    return app.fetch(request, host.platform);
  };
}

async function main(): Promise<void> {
  const deno = readDenoRuntime();
  const env = (name: string) => deno.env.get(name);
  const dataDirectory = env('DENO_DATA_DIR') ?? '.deno-data';
  await deno.mkdir(dataDirectory, { recursive: true });
  const migrations = new URL('../migrations/', (import.meta as ImportMeta & { url: string }).url);
  const host = openDenoHost({
    dataDirectory,
    tenantDatabases: (env('DENO_TENANT_DATABASES') ?? 'TENANT_DB_1,TENANT_DB_2').split(',').map((name) => name.trim()),
    migrations: {
      directory: await readSqlFiles(deno, new URL('directory/', migrations)),
      tenant: await readSqlFiles(deno, new URL('tenant/', migrations)),
    },
    commandHandlers,
    env: {
      JWT_SECRET: env('JWT_SECRET'),
      JWT_JWKS_URL: env('JWT_JWKS_URL'),
      JWT_ISSUER: env('JWT_ISSUER'),
      JWT_AUDIENCE: env('JWT_AUDIENCE'),
      MOVE_STEP_QUERIES: env('MOVE_STEP_QUERIES'),
    },
  });
  if (host.appliedMigrations.length > 0) console.log(`Applied migrations in ${dataDirectory}: ${host.appliedMigrations.join(', ')}`);

  const cron = startCronTimer(Number(env('CRON_INTERVAL_MINUTES') ?? 15), () => runScheduledJobs(host.platform, scheduledJobs));
  const controller = new AbortController();
  const server = deno.serve(
    {
      hostname: env('HOST') ?? '127.0.0.1',
      port: Number(env('PORT') ?? 8788),
      signal: controller.signal,
      onListen: (address) => console.log(`Deno server listening on http://${address.hostname}:${address.port}`),
    },
    buildHandler(deno, host),
  );
  const stop = () => {
    cron.stop();
    controller.abort();
  };
  deno.addSignalListener('SIGINT', stop);
  deno.addSignalListener('SIGTERM', stop);
  if (env('EXIT_ON_STDIN_END') === '1') void waitForStdinEnd(deno).then(stop);
  await server.finished;
  await host.close();
}

try {
  await main();
} catch (error) {
  console.error(`The Deno server could not start: ${error instanceof Error ? error.message : String(error)}`);
  readDenoRuntime().exit(1);
}
