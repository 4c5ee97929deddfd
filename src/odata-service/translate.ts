/**
 * Requests of the standard root run as today's operations: the route of `/api/{tenantKey}/{orgKey}` whose path has the
 * given shape (`/operations/emailTemplates/:`: literal segments, `:` for each parameter) is found among the application's
 * routes and its handler runs with the request's own context (already admitted: token, tenant/org, rate limits,
 * idempotency), so validation, rules, events and answers are the same code. A shape no route has for the method answers
 * what today's router answers: 405 with `Allow` when other methods have it, else 404.
 */
import { requireScope } from '../auth/token';
import { decodeParams } from '../http/address';
import { ApiError } from '../errors/api-error';
import type { ApiContext } from '../http/context';
import type { ApiRoute } from '../http/route';
import { apiRoutes } from '../services/registry';

/** `/a/:x/b/:y` -> `/a/:/b/:` (the shape a call names). */
function shapeOf(path: string): string {
  return path.replace(/\/:[A-Za-z0-9_]+/g, '/:');
}

const byShape = new Map<string, ApiRoute[]>();
for (const route of apiRoutes) {
  const shape = shapeOf(route.path).toLowerCase();
  byShape.set(shape, [...(byShape.get(shape) ?? []), route]);
}

/** One call of today's operation: its method, path shape and parameter values (in path order). */
export interface RouteCall {
  readonly method: ApiRoute['method'];
  readonly shape: string;
  readonly values?: readonly string[];
  readonly query?: URLSearchParams;
  /** The request whose body and headers the operation reads (default: this request, without its body). */
  readonly request?: Request;
  /** What the standard root calls each path parameter (the key properties): errors naming a parameter name these. */
  readonly targets?: readonly string[];
}

/** An error of today's operation with its path parameters named as the standard root names them. */
function renameTargets(error: unknown, names: readonly string[], targets: readonly string[] | undefined): unknown {
  if (!(error instanceof ApiError) || !targets || error.errors.length === 0) return error;
  const errors = error.errors.map((field) => {
    const index = names.indexOf(field.path);
    return index === -1 ? field : { ...field, path: targets[index] ?? field.path };
  });
  return new ApiError(error.code, error.detail, { errors, status: error.status, headers: error.headers });
}

function findRoute(method: string, shape: string): ApiRoute {
  const routes = byShape.get(shape.toLowerCase()) ?? [];
  const route = routes.find((candidate) => candidate.method === method);
  if (route) return route;
  const allowed = [...new Set(routes.map((candidate) => candidate.method))];
  if (allowed.length === 0) throw new ApiError('NotFound', `No resource at ${shape}.`);
  throw new ApiError('MethodNotAllowed', `${method} is not allowed here; use ${allowed.join(', ')}.`, {
    headers: { allow: allowed.join(', ') },
  });
}

/** Runs today's operation for `call` in this request's context; its answer is today's, or its error is thrown. */
export async function callRoute(ctx: ApiContext, call: RouteCall): Promise<Response> {
  const route = findRoute(call.method, call.shape);
  requireScope(ctx.principal, route.scope);
  const values = [...(call.values ?? [])];
  const names = [...route.path.matchAll(/\/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
  const raw: Record<string, string> = { tenantKey: ctx.params.tenantKey ?? '', orgKey: ctx.params.orgKey ?? '' };
  names.forEach((name, index) => (raw[name] = encodeURIComponent(values[index] ?? '')));
  let position = 0;
  const path = call.shape.replace(/\/:/g, () => `/${raw[names[position++] ?? ''] ?? ''}`);
  const url = new URL(`${ctx.apiBase}${path}`);
  if (call.query) url.search = call.query.toString();
  const request = call.request
    ? new Request(url.toString(), call.request)
    : new Request(url.toString(), { method: call.method, headers: ctx.request.headers });
  try {
    return await route.handle({ ...ctx, request, url, params: decodeParams(raw) });
  } catch (error) {
    throw renameTargets(error, names, call.targets);
  }
}

/** The JSON body of a successful answer of today's operations. */
export async function readAnswer<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
