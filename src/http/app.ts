/** The HTTP application: router -> auth and tenant scope -> handler, with one catch for every error. */
import { Router } from 'itty-router/Router';
import type { IRequest, RouterType } from 'itty-router';
import { authenticate, authorize, requireScope } from '../auth/token';
import { authenticateWithTicket } from '../auth/stream-ticket';
import type { Scope } from '../auth/token';
import { checkTokenNotRevoked } from '../auth/revocation';
import type { TenantScope } from '../db/client';
import type { RoundTripMeter } from '../tenant/d1/meter';
import { openTenantSession } from '../tenant/session';
import { advanceSession, BOOKMARK_HEADER, formatBookmark, parseBookmark } from '../tenant/placement/bookmark';
import type { ReadSession } from '../tenant/placement/bookmark';
import type { Platform } from '../runtime/platform';
import type { GroupMember } from '../tenant/atomic-group';
import { guardGroupCommands } from './group-commands';
import type { ApiContext, DispatchOptions, OperatorContext, PublicContext } from './context';
import { ApiError, handleError } from '../errors/api-error';
import { acceptsIdempotencyKey, handleIdempotently } from './idempotency';
import { checkRateLimits, describeRateLimitPolicy, RATE_LIMIT_POLICY_HEADER } from './rate-limit';
import { writeRequestLog } from './request-log';
import { checkRequestTarget } from './request-target';
import type { ApiRoute, OperatorRoute, PublicRoute, ServiceRoot } from './route';
import { message } from '../messages/catalogue';
import { checkAddress, decodeParams } from './address';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const API_PREFIX = '/api/:tenantKey/:orgKey';
/** The standard OData v4 service root (src/odata-service/): admitted exactly as the API prefix is. */
const SERVICE_PREFIX = '/odata/:tenantKey/:orgKey';

/**
 * What the app knows of one request while it runs: id, matched route, tenant/org, D1 round trips (its log line) and,
 * once the request is authorized for a tenant/org, its D1 read session (answered as `x-d1-bookmark`).
 */
interface RequestTrace {
  readonly requestId: string;
  readonly meter: RoundTripMeter;
  route: string | null;
  scope: TenantScope | null;
  session: ReadSession | null;
  /** The atomic group of `$batch` the request belongs to (`ApiContext.dispatch`), if any. */
  readonly group?: GroupMember;
  /** Sent through `ApiContext.dispatch` (a request of `$batch`), not by a client. */
  readonly nested: boolean;
  /** The standard root's last step on every answer of the request, errors included (`ServiceRoot.finish`). */
  finish?: ServiceRoot['finish'];
}

type Handler = (request: IRequest, platform: Platform, trace: RequestTrace) => Promise<Response>;
/** The whole application's fetch (what `ApiContext.dispatch` runs a request through). */
type AppFetch = (request: Request, platform: Platform, options?: DispatchOptions) => Promise<Response>;

/** Authentication, authorization and rate limits of one `/api/{tenantKey}/{orgKey}` request. */
async function admitApiRequest(request: Request, platform: Platform, tenantKey: string, orgKey: string, scope: Scope, ticket = false) {
  // On a route that takes them (the live stream), a stream ticket stands for a bearer token.
  const principal = await authenticateWithTicket(request, platform.config, { tenantKey, orgKey }, platform.now(), ticket);
  authorize(principal, tenantKey, orgKey, scope);
  await checkTokenNotRevoked(platform.cache, principal);
  await checkRateLimits(platform.rateLimits, { tenantKey, orgKey, subject: principal.subject }, Date.now());
  return principal;
}

/**
 * The request's D1 read session: reads of GET/HEAD may start on a replica, other methods start on the primary (so
 * a write's checks read the latest data), and a client's `x-d1-bookmark` makes reads at least that fresh.
 */
function openReadSession(request: Request): ReadSession {
  const bookmark = parseBookmark(request.headers.get(BOOKMARK_HEADER));
  if (bookmark === null) {
    throw new ApiError('ValidationFailed', `${BOOKMARK_HEADER} must be a bookmark this API answered (<database>:<bookmark>).`, {
      errors: [{ path: BOOKMARK_HEADER, message: message('badBookmark', { field: BOOKMARK_HEADER }) }],
    });
  }
  return { start: request.method === 'GET' || request.method === 'HEAD' ? 'replica' : 'primary', bookmark: bookmark ?? null };
}

/** Authenticates and scopes one `/api/{tenantKey}/{orgKey}` request. */
/** What admitting and running a route needs of it (an API route, or a route of the standard root). */
type AdmittedRoute = Pick<ApiRoute, 'method' | 'scope' | 'readOnly' | 'acceptsTicket'> & { handle(ctx: ApiContext): Promise<Response> };

async function buildApiContext(
  request: IRequest,
  platform: Platform,
  trace: RequestTrace,
  route: AdmittedRoute,
  fetchApp: AppFetch,
): Promise<ApiContext> {
  const params = decodeParams(request.params);
  const { tenantKey, orgKey } = checkAddress(params);
  trace.scope = { tenantKey, orgKey };
  const principal = await admitApiRequest(request, platform, tenantKey, orgKey, route.scope, route.acceptsTicket === true);
  const session = openReadSession(request);
  trace.session = session;
  const [url, group] = [new URL(request.url), trace.group];
  return {
    request,
    url,
    params,
    // Coordinator commands join the request's read session and count their D1 round trips in its log line.
    platform: { ...platform, coordinator: (target) => guardGroupCommands(platform.coordinator(target, session, trace.meter), group) },
    requestId: trace.requestId,
    // A member of an atomic group: its session's batches commit into the group's; any other write is refused, never run.
    tenant: openTenantSession({
      executor: platform.openTenant({
        tenantKey,
        orgKey,
        meter: trace.meter,
        session,
        ...(group ? { refuseWrites: () => group.refuse() } : {}),
      }),
      stamp: { on: platform.now().toISOString(), by: principal.subject },
      group,
    }),
    principal,
    apiBase: `${url.origin}/api/${encodeURIComponent(tenantKey)}/${encodeURIComponent(orgKey)}`,
    nested: trace.nested,
    dispatch: async (inner, options) => {
      const response = await fetchApp(inner, platform, { ...options, nested: true });
      advanceSession(session, parseBookmark(response.headers.get(BOOKMARK_HEADER)) ?? null);
      return response;
    },
    readBookmark: () => (session.bookmark ? formatBookmark(session.bookmark) : null),
  };
}

function wrapApiRoute(route: AdmittedRoute, fetchApp: AppFetch): Handler {
  const handle = acceptsIdempotencyKey(route) ? (ctx: ApiContext) => handleIdempotently(ctx, route.handle) : route.handle;
  return async (request, platform, trace) => {
    const ctx = await buildApiContext(request, platform, trace, route, fetchApp);
    const response = await handle(ctx);
    if (platform.rateLimits) response.headers.set(RATE_LIMIT_POLICY_HEADER, describeRateLimitPolicy(platform.rateLimits));
    return response;
  };
}

async function authorizeOperator(request: IRequest, platform: Platform) {
  const principal = await authenticate(request, platform.config);
  requireScope(principal, 'operator');
  return principal;
}

function buildPublicContext(request: IRequest, platform: Platform, trace: RequestTrace): PublicContext {
  return {
    request,
    url: new URL(request.url),
    params: decodeParams(request.params),
    platform,
    requestId: trace.requestId,
    openTenant: (scope) => {
      trace.scope = scope;
      return openTenantSession({
        executor: platform.openTenant({ ...scope, meter: trace.meter }),
        stamp: { on: platform.now().toISOString(), by: 'system' },
      });
    },
  };
}

function wrapOperatorRoute(route: OperatorRoute): Handler {
  return async (request, platform, trace) => {
    const principal = await authorizeOperator(request, platform);
    const ctx: OperatorContext = { ...buildPublicContext(request, platform, trace), principal };
    return route.handle(ctx);
  };
}

function wrapPublicRoute(route: PublicRoute): Handler {
  return async (request, platform, trace) => route.handle(buildPublicContext(request, platform, trace));
}

interface App {
  /** One request through the application; `options.group`: as a member of an atomic group of `$batch`. */
  fetch(request: Request, platform: Platform, options?: DispatchOptions): Promise<Response>;
  /** Every routed method and path pattern with its regular expression, in matching order (for OpenAPI checks). */
  readonly routes: readonly { method: string; path: string; match: RegExp }[];
}

type AppRouter = RouterType<IRequest, [Platform, RequestTrace], Response>;
type RoutePattern = App['routes'][number];

/** Routes `method path` to `handler`; the route's literal segments match in any case. */
function addRoute(router: AppRouter, patterns: RoutePattern[], method: string, path: string, handler: Handler): void {
  // itty-router turns the pattern into a regular expression as written: a literal `$` (`/$batch`) is escaped.
  router[method.toLowerCase()]?.(path.replace(/\$/g, '\\$'), (request: IRequest, platform: Platform, trace: RequestTrace) => {
    trace.route = path;
    return handler(request, platform, trace);
  });
  const entry = router.routes[router.routes.length - 1];
  if (!entry) return;
  // Literal segments (modules, resources, operations, attributes) match in any case, as the product family routes;
  // parameters capture the segment as sent, so keys and ids stay exact.
  entry[1] = new RegExp(entry[1].source, 'i');
  patterns.push({ method, path, match: entry[1] });
}

const API_PATH = /^\/api\/([^/]+)\/([^/]+)(\/|$)/i;

/**
 * What no route matches: 405 with `Allow` where other methods match the path, else 404. Unknown /api paths still need
 * a valid token for that tenant/org, so nothing is revealed to strangers; unknown /admin paths the operator scope.
 */
async function refuseUnrouted(
  request: IRequest,
  platform: Platform,
  trace: RequestTrace,
  patterns: readonly RoutePattern[],
): Promise<never> {
  const path = new URL(request.url).pathname;
  const allowed = [...new Set(patterns.filter((entry) => entry.match.test(path)).map((entry) => entry.method))];
  const api = API_PATH.exec(path);
  if (api) {
    const { tenantKey, orgKey } = checkAddress(decodeParams({ tenantKey: api[1] ?? '', orgKey: api[2] ?? '' }));
    trace.scope = { tenantKey, orgKey };
    await admitApiRequest(request, platform, tenantKey, orgKey, 'application');
  }
  if (path === '/admin' || path.startsWith('/admin/')) await authorizeOperator(request, platform);
  if (allowed.length > 0) {
    throw new ApiError('MethodNotAllowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`, {
      headers: { allow: allowed.join(', ') },
    });
  }
  throw new ApiError('NotFound', `No resource at ${path}.`);
}

/** One request through the router: its id, the one catch (problem+json), its headers and its log line. */
async function serveRequest(router: AppRouter, request: Request, platform: Platform, options?: DispatchOptions): Promise<Response> {
  const incoming = request.headers.get('x-request-id');
  const requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
  const started = performance.now();
  const trace: RequestTrace = {
    requestId,
    meter: { roundTrips: 0 },
    route: null,
    scope: null,
    session: null,
    ...(options?.group ? { group: options.group } : {}),
    nested: options?.nested === true,
  };
  let response: Response;
  let failure: unknown;
  try {
    checkRequestTarget(request.url);
    response = await router.fetch(request, platform, trace);
  } catch (error) {
    failure = error;
    response = handleError(error, request, requestId);
  }
  if (trace.finish) response = await trace.finish(response, request);
  response.headers.set('x-request-id', requestId);
  if (trace.session?.bookmark) response.headers.set(BOOKMARK_HEADER, formatBookmark(trace.session.bookmark));
  writeRequestLog({
    requestId,
    request,
    route: trace.route,
    scope: trace.scope,
    status: response.status,
    durationMs: performance.now() - started,
    d1RoundTrips: trace.meter.roundTrips,
    ...(failure === undefined ? {} : { error: failure }),
  });
  return response;
}

export function buildApp(
  publicRoutes: readonly PublicRoute[],
  apiRoutes: readonly ApiRoute[],
  operatorRoutes: readonly OperatorRoute[] = [],
  serviceRoot?: ServiceRoot,
): App {
  // Every route answers a Response or throws, and the catch-all below matches whatever the routes do not.
  const router: AppRouter = Router();
  const patterns: RoutePattern[] = [];
  const fetchApp: AppFetch = (request, platform, options) => serveRequest(router, request, platform, options);
  for (const route of publicRoutes) addRoute(router, patterns, route.method, route.path, wrapPublicRoute(route));
  for (const route of apiRoutes) addRoute(router, patterns, route.method, `${API_PREFIX}${route.path}`, wrapApiRoute(route, fetchApp));
  for (const route of operatorRoutes) addRoute(router, patterns, route.method, route.path, wrapOperatorRoute(route));
  for (const route of serviceRoot?.routes ?? []) {
    const handle = wrapApiRoute({ ...route, scope: 'application' }, fetchApp);
    const finish = serviceRoot?.finish;
    addRoute(router, patterns, route.method, `${SERVICE_PREFIX}${route.path}`, (request, platform, trace) => {
      trace.finish = finish;
      return handle(request, platform, trace);
    });
  }
  router.all('*', (request: IRequest, platform: Platform, trace: RequestTrace) => refuseUnrouted(request, platform, trace, patterns));
  return { routes: patterns.map(({ method, path, match }) => ({ method, path, match })), fetch: fetchApp };
}
