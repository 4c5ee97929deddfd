/** The HTTP application: router -> auth and tenant scope -> handler, with one catch for every error. */
import { Router } from 'itty-router/Router';
import type { IRequest } from 'itty-router';
import { authenticate, authorize } from '../auth/token';
import type { Platform } from '../platform/types';
import type { ApiContext, PublicContext } from './context';
import { ApiError, handleError } from './errors';
import type { ApiRoute, PublicRoute } from './route';

const ADDRESS_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const API_PREFIX = '/api/:tenantKey/:orgKey';

type Handler = (request: IRequest, platform: Platform, requestId: string) => Promise<Response>;

function decodeParams(raw: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError('ValidationFailed', `Path segment ${name} is not valid percent-encoding.`, {
        errors: [{ path: name, message: 'Invalid encoding.' }],
      });
    }
  }
  return decoded;
}

function checkAddress(params: Record<string, string>): { tenantKey: string; orgKey: string } {
  const tenantKey = params.tenantKey ?? '';
  const orgKey = params.orgKey ?? '';
  const errors = [
    ...(ADDRESS_PATTERN.test(tenantKey) ? [] : [{ path: 'tenantKey', message: 'Must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$.' }]),
    ...(ADDRESS_PATTERN.test(orgKey) ? [] : [{ path: 'orgKey', message: 'Must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$.' }]),
  ];
  if (errors.length > 0) throw new ApiError('InvalidAddress', 'The tenant or organization key is not valid.', { errors });
  return { tenantKey, orgKey };
}

function readLanguage(request: Request): string {
  const header = request.headers.get('accept-language');
  const first = header?.split(',')[0]?.split(';')[0]?.trim();
  return first && first !== '*' ? first : 'en-US';
}

/** Authenticates and scopes one `/api/{tenantKey}/{orgKey}` request. */
export async function buildApiContext(
  request: IRequest,
  platform: Platform,
  requestId: string,
  scope: ApiRoute['scope'],
): Promise<ApiContext> {
  const params = decodeParams(request.params);
  const { tenantKey, orgKey } = checkAddress(params);
  const principal = await authenticate(request, platform.config);
  authorize(principal, tenantKey, orgKey, scope);
  const url = new URL(request.url);
  return {
    request,
    url,
    params,
    platform,
    requestId,
    tenantKey,
    orgKey,
    principal,
    apiBase: `${url.origin}/api/${encodeURIComponent(tenantKey)}/${encodeURIComponent(orgKey)}`,
    language: readLanguage(request),
  };
}

function wrapApiRoute(route: ApiRoute): Handler {
  return async (request, platform, requestId) => route.handle(await buildApiContext(request, platform, requestId, route.scope));
}

function wrapPublicRoute(route: PublicRoute): Handler {
  return async (request, platform, requestId) => {
    const ctx: PublicContext = { request, url: new URL(request.url), params: decodeParams(request.params), platform, requestId };
    return route.handle(ctx);
  };
}

export interface App {
  fetch(request: Request, platform: Platform): Promise<Response>;
  /** Every routed method and path pattern with its regular expression, in matching order (for OpenAPI checks). */
  readonly routes: readonly { method: string; path: string; match: RegExp }[];
}

export function buildApp(publicRoutes: readonly PublicRoute[], apiRoutes: readonly ApiRoute[]): App {
  const router = Router<IRequest, [Platform, string]>();
  const patterns: { method: string; path: string; match: RegExp }[] = [];
  const add = (method: string, path: string, handler: Handler) => {
    router[method.toLowerCase()]?.(path, handler);
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
  router.all('*', async (request: IRequest, platform: Platform) => {
    const path = new URL(request.url).pathname;
    const allowed = [...new Set(patterns.filter((entry) => entry.match.test(path)).map((entry) => entry.method))];
    // Unknown /api paths still need a valid token for that tenant/org: nothing is revealed to strangers.
    const api = apiPattern.exec(path);
    if (api) {
      const params = decodeParams({ tenantKey: api[1] ?? '', orgKey: api[2] ?? '' });
      checkAddress(params);
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
      let response: Response;
      try {
        response = ((await router.fetch(request, platform, requestId)) as Response | undefined) ?? new Response(null, { status: 404 });
      } catch (error) {
        response = handleError(error, request, requestId);
      }
      response.headers.set('x-request-id', requestId);
      return response;
    },
  };
}
