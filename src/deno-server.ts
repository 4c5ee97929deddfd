/**
 * The application served by Deno: the Worker's app with the Deno platform (src/runtime/deno/): each D1 database (the
 * directory and every tenant database) a local SQLite file over node:sqlite, in-memory KV, in-process coordinators,
 * and a timer for the cron trigger. `src/deno.ts` starts it;
 * the Deno test run starts it with its own extension (test/deno-host/).
 *
 * Static assets: the files of public/ (`npm run assets`), served as Workers `[assets]` serves them.
 */
import { app } from './app';
import { hasDotSegment } from './http/request-target';
import { loadStaticAssets } from './runtime/deno/assets';
import type { StaticAssets } from './runtime/deno/assets';
import { startCronTimer } from './runtime/deno/cron';
import { openDenoHost } from './runtime/deno/host';
import type { DenoHost } from './runtime/deno/host';
import { requireDenoRuntime, loadSqlFiles, waitForStdinEnd } from './runtime/deno/runtime';
import type { DenoRuntime, DenoServeInfo } from './runtime/deno/runtime';
import { backupJob } from './jobs/backups';
import { runScheduledJobs } from './jobs/scheduler';
import { commandHandlers, deliverSubscription, processImport, scheduledJobs } from './services/registry';
import { TENANT_MODEL } from './tenant-model';

/** The header the API reads a request's source address from (src/services/identity/token-limits.ts). */
const CLIENT_ADDRESS = 'cf-connecting-ip';
const FORWARDED_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$/;
/** The paths `wrangler dev --test-scheduled` answers by running the cron trigger (the query string, `?cron=`, is ignored). */
const SCHEDULED_PATHS: readonly string[] = ['/__scheduled', '/cdn-cgi/handler/scheduled'];

/** Extra requests a caller serves before the app (undefined: not its own). */
type DenoRequestExtension = (request: Request, host: DenoHost) => Promise<Response | undefined>;

/** Behind a trusted proxy: the URL the client used, from X-Forwarded-Proto and X-Forwarded-Host. */
function applyForwardedOrigin(request: Request): Request {
  const proto = request.headers.get('x-forwarded-proto');
  const host = request.headers.get('x-forwarded-host');
  if (proto === null && host === null) return request;
  // Rebuilding the URL would resolve dot segments: such a request goes on as received, for the app to refuse.
  if (hasDotSegment(request.url)) return request;
  const url = new URL(request.url);
  const scheme = proto === 'http' || proto === 'https' ? proto : url.protocol.slice(0, -1);
  const authority = host !== null && FORWARDED_HOST.test(host) ? host : url.host;
  const target = new URL(`${url.pathname}${url.search}`, `${scheme}://${authority}`);
  return new Request(target, { method: request.method, headers: request.headers, body: request.body, redirect: request.redirect });
}

/**
 * The request with `CF-Connecting-IP` set as Cloudflare sets it: the connection's address, or behind a trusted proxy
 * the first X-Forwarded-For address; a value the client sent is never kept.
 */
function applyClientAddress(request: Request, info: DenoServeInfo | undefined, trustForwarded: boolean): Request {
  const forwarded = trustForwarded ? request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
  const address = forwarded || info?.remoteAddr?.hostname;
  if (address === undefined && !request.headers.has(CLIENT_ADDRESS)) return request;
  const headers = new Headers(request.headers);
  if (address === undefined) headers.delete(CLIENT_ADDRESS);
  else headers.set(CLIENT_ADDRESS, address);
  return new Request(request, { headers });
}

function buildHandler(
  deno: DenoRuntime,
  host: DenoHost,
  assets: StaticAssets,
  extension?: DenoRequestExtension,
): (request: Request, info?: DenoServeInfo) => Promise<Response> {
  const trustForwarded = deno.env.get('TRUST_FORWARDED_HEADERS') === '1';
  const testScheduled = deno.env.get('TEST_SCHEDULED') === '1';
  return async (incoming, info) => {
    const addressed = applyClientAddress(incoming, info, trustForwarded);
    const request = trustForwarded ? applyForwardedOrigin(addressed) : addressed;
    const asset = assets.serve(request);
    if (asset) return asset;
    if (testScheduled && SCHEDULED_PATHS.includes(new URL(request.url).pathname)) {
      await runScheduledJobs(host.platform, [...scheduledJobs, backupJob]);
      return new Response('Ran scheduled event');
    }
    return (await extension?.(request, host)) ?? app.fetch(request, host.platform);
  };
}

/** The configuration variables the host reads from the environment. */
function readHostEnv(env: (name: string) => string | undefined) {
  return {
    JWT_SECRET: env('JWT_SECRET'),
    PAGE_TOKEN_SECRET: env('PAGE_TOKEN_SECRET'),
    JWT_JWKS_URL: env('JWT_JWKS_URL'),
    JWT_ISSUER: env('JWT_ISSUER'),
    JWT_AUDIENCE: env('JWT_AUDIENCE'),
    APP_ENV: env('APP_ENV'),
    RATE_LIMIT_PER_MINUTE: env('RATE_LIMIT_PER_MINUTE'),
    MOVE_STEP_QUERIES: env('MOVE_STEP_QUERIES'),
    WEBHOOKS_ALLOW_LOCAL_HTTP: env('WEBHOOKS_ALLOW_LOCAL_HTTP'),
    WEBHOOKS_DNS_RESOLVER_URL: env('WEBHOOKS_DNS_RESOLVER_URL'),
    WEBHOOK_RETRY_BASE_SECONDS: env('WEBHOOK_RETRY_BASE_SECONDS'),
    BACKUP_RETENTION_DAYS: env('BACKUP_RETENTION_DAYS'),
  };
}

/**
 * Serves until SIGINT/SIGTERM (or, with EXIT_ON_STDIN_END=1, until standard input closes). Environment: PORT (8788),
 * HOST (127.0.0.1), DENO_DATA_DIR (.deno-data: one SQLite file per database, plus coordinators.sqlite, and import-files/),
 * DENO_TENANT_DATABASES (TENANT_DB_1,TENANT_DB_2), JWT_SECRET, PAGE_TOKEN_SECRET, JWT_JWKS_URL, JWT_ISSUER, JWT_AUDIENCE,
 * APP_ENV (production; `development` for local servers), RATE_LIMIT_PER_MINUTE (600; 0 turns rate limiting off),
 * MOVE_STEP_QUERIES (400), WEBHOOKS_ALLOW_LOCAL_HTTP (false; `true` lets subscriptions use http:// to a loopback host),
 * WEBHOOKS_DNS_RESOLVER_URL (https://cloudflare-dns.com/dns-query), WEBHOOK_RETRY_BASE_SECONDS (30), BACKUP_RETENTION_DAYS (30; snapshots in <DENO_DATA_DIR>/backups), CRON_INTERVAL_MINUTES (15; 0 turns the timer off), TEST_SCHEDULED=1
 * (GET /cdn-cgi/handler/scheduled or /__scheduled runs the scheduled jobs, like `wrangler dev --test-scheduled`),
 * TRUST_FORWARDED_HEADERS=1 (the request URL takes X-Forwarded-Proto/-Host and the source address the first
 * X-Forwarded-For address, behind a trusted proxy).
 */
export async function serveDeno(extension?: DenoRequestExtension): Promise<void> {
  const deno = requireDenoRuntime();
  const env = (name: string) => deno.env.get(name);
  const dataDirectory = env('DENO_DATA_DIR') ?? '.deno-data';
  // Owner only (0700; the files in it 0600: src/runtime/deno/host.ts).
  await deno.mkdir(dataDirectory, { recursive: true, mode: 0o700 });
  const filesDirectory = `${dataDirectory}/import-files`;
  await deno.mkdir(filesDirectory, { recursive: true, mode: 0o700 });
  const assets = await loadStaticAssets(deno, new URL('../public/', import.meta.url));
  const tenantDatabases = (env('DENO_TENANT_DATABASES') ?? 'TENANT_DB_1,TENANT_DB_2').split(',').map((name) => name.trim());
  const host = openDenoHost({
    dataDirectory,
    filesDirectory,
    tenantDatabases,
    migrations: {
      directory: await loadSqlFiles(deno, new URL('../migrations/directory/', import.meta.url)),
      tenant: await loadSqlFiles(deno, new URL('../migrations/tenant/', import.meta.url)),
    },
    commandHandlers,
    model: TENANT_MODEL,
    deliveryConsumer: deliverSubscription,
    importProcessor: processImport,
    env: readHostEnv(env),
    readAsset: async (path) => assets.read(path),
  });
  // One line per database, as `npm start` prints them (scripts/start-deno.mjs shows these lines of the start).
  for (const binding of ['DIRECTORY', ...tenantDatabases]) {
    const count = host.appliedMigrations.filter((migration) => migration.startsWith(`${binding.toLowerCase()}.sqlite:`)).length;
    console.log(`Migrations: ${binding} ${count === 0 ? 'up to date' : `${count} applied`} (${dataDirectory})`);
  }

  const cron = startCronTimer(Number(env('CRON_INTERVAL_MINUTES') ?? 15), () =>
    runScheduledJobs(host.platform, [...scheduledJobs, backupJob]),
  );
  const controller = new AbortController();
  const server = deno.serve(
    {
      hostname: env('HOST') ?? '127.0.0.1',
      port: Number(env('PORT') ?? 8788),
      signal: controller.signal,
      onListen: (address) => console.log(`Deno server listening on http://${address.hostname}:${address.port}`),
    },
    buildHandler(deno, host, assets, extension),
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
