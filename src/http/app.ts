/** The HTTP application: router -> auth and tenant scope -> handler, with one catch for every error. */
import { Router } from 'itty-router/Router';
import type { IRequest, RouterType } from 'itty-router';
import { authenticate, authorize } from '../auth/token';
import type { TenantScope } from '../db/client';
import type { RoundTripMeter } from '../platform/d1-meter';
import type { Platform } from '../platform/types';
import type { ApiContext, PublicContext } from './context';
import { ApiError, handleError } from '../errors/api-error';
import { writeRequestLog } from './request-log';
import type { ApiRoute, PublicRoute } from './route';
import { message } from '../messages/catalogue';

/** What a tenantKey or orgKey may be. */
export const ADDRESS_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const API_PREFIX = '/api/:tenantKey/:orgKey';

/** What the app knows of one request while it runs (for its log line): id, matched route, tenant/org, D1 round trips. */
export interface RequestTrace {
  readonly requestId: string;
  readonly meter: RoundTripMeter;
  route: string | null;
  scope: TenantScope | null;
}

type Handler = (request: IRequest, platform: Platform, trace: RequestTrace) => Promise<Response>;

function decodeParams(raw: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError('ValidationFailed', `Path segment ${name} is not valid percent-encoding.`, {
        errors: [{ path: name, message: message('badEncoding', { field: name }) }],
      });
    }
  }
  return decoded;
}

function checkAddress(params: Record<string, string>): { tenantKey: string; orgKey: string } {
  const tenantKey = params.tenantKey ?? '';
  const orgKey = params.orgKey ?? '';
  const errors = [
    ...(ADDRESS_PATTERN.test(tenantKey) ? [] : [{ path: 'tenantKey', message: message('addressPattern', { field: 'tenantKey' }) }]),
    ...(ADDRESS_PATTERN.test(orgKey) ? [] : [{ path: 'orgKey', message: message('addressPattern', { field: 'orgKey' }) }]),
  ];
  if (errors.length > 0) throw new ApiError('InvalidAddress', 'The tenant or organization key is not valid.', { errors });
  return { tenantKey, orgKey };
}

/** Authenticates and scopes one `/api/{tenantKey}/{orgKey}` request. */
export async function buildApiContext(
  request: IRequest,
  platform: Platform,
  trace: RequestTrace,
  scope: ApiRoute['scope'],
): Promise<ApiContext> {
  const params = decodeParams(request.params);
  const { tenantKey, orgKey } = checkAddress(params);
  trace.scope = { tenantKey, orgKey };
  const principal = await authenticate(request, platform.config);
  authorize(principal, tenantKey, orgKey, scope);
  const url = new URL(request.url);
  return {
    request,
    url,
    params,
    platform,
    requestId: trace.requestId,
    scope: { tenantKey, orgKey },
    db: await platform.openTenantDatabase({ tenantKey, orgKey, meter: trace.meter }),
    principal,
    apiBase: `${url.origin}/api/${encodeURIComponent(tenantKey)}/${encodeURIComponent(orgKey)}`,
  };
}

function wrapApiRoute(route: ApiRoute): Handler {
  return async (request, platform, trace) => route.handle(await buildApiContext(request, platform, trace, route.scope));
}

function wrapPublicRoute(route: PublicRoute): Handler {
  return async (request, platform, trace) => {
    const ctx: PublicContext = {
      request,
      url: new URL(request.url),
      params: decodeParams(request.params),
      platform,
      requestId: trace.requestId,
      openTenantDatabase: (scope) => {
        trace.scope = scope;
        return platform.openTenantDatabase({ ...scope, meter: trace.meter });
      },
    };
    return route.handle(ctx);
  };
}

export interface App {
  fetch(request: Request, platform: Platform): Promise<Response>;
  /** Every routed method and path pattern with its regular expression, in matching order (for OpenAPI checks). */
  readonly routes: readonly { method: string; path: string; match: RegExp }[];
}

export function buildApp(publicRoutes: readonly PublicRoute[], apiRoutes: readonly ApiRoute[]): App {
  // Every route answers a Response or throws, and the catch-all below matches whatever the routes do not.
  const router: RouterType<IRequest, [Platform, RequestTrace], Response> = Router();
  const patterns: { method: string; path: string; match: RegExp }[] = [];
  const add = (method: string, path: string, handler: Handler) => {
    router[method.toLowerCase()]?.(path, (request: IRequest, platform: Platform, trace: RequestTrace) => {
      trace.route = path;
      return handler(request, platform, trace);
    });
    const entry = router.routes[router.routes.length - 1];
    if (!entry) return;
    // Literal segments (modules, resources, operations, attributes) match in any case, as the product family routes;
    // parameters capture the segment as sent, so keys and ids stay exact.
    entry[1] = new RegExp(entry[1].source, 'i');
    patterns.push({ method, path, match: entry[1] });
  };
  for (const route of publicRoutes) add(route.method, route.path, wrapPublicRoute(route));
  for (const route of apiRoutes) add(route.method, `${API_PREFIX}${route.path}`, wrapApiRoute(route));

  const apiPattern = /^\/api\/([^/]+)\/([^/]+)(\/|$)/i;
  router.all('*', async (request: IRequest, platform: Platform, trace: RequestTrace) => {
    const path = new URL(request.url).pathname;
    const allowed = [...new Set(patterns.filter((entry) => entry.match.test(path)).map((entry) => entry.method))];
    // Unknown /api paths still need a valid token for that tenant/org: nothing is revealed to strangers.
    const api = apiPattern.exec(path);
    if (api) {
      const params = decodeParams({ tenantKey: api[1] ?? '', orgKey: api[2] ?? '' });
      trace.scope = checkAddress(params);
      const principal = await authenticate(request, platform.config);
      authorize(principal, params.tenantKey ?? '', params.orgKey ?? '', 'application');
    }
    if (allowed.length > 0) {
      throw new ApiError('MethodNotAllowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`, {
        headers: { allow: allowed.join(', ') },
      });
    }
    throw new ApiError('NotFound', `No resource at ${path}.`);
  });

  return {
    routes: patterns.map(({ method, path, match }) => ({ method, path, match })),
    async fetch(request, platform) {
      const incoming = request.headers.get('x-request-id');
      const requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
      const started = performance.now();
      const trace: RequestTrace = { requestId, meter: { roundTrips: 0 }, route: null, scope: null };
      let response: Response;
      let failure: unknown;
      try {
        response = await router.fetch(request, platform, trace);
      } catch (error) {
        failure = error;
        response = handleError(error, request, requestId);
      }
      response.headers.set('x-request-id', requestId);
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
    },
  };
}
