/** Routes -> documented operations: OpenAPI paths, one operation per route (or per variant of a route). */
import { API_PREFIX } from '../http/app';
import type { ApiRoute, Method, OperatorRoute, PublicRoute, RouteDoc } from '../http/route';
import { acceptsIdempotencyKey } from '../http/idempotency';

export interface DocumentedOperation {
  readonly method: Method;
  /** The router's pattern (`/api/:tenantKey/:orgKey/operations/emailTemplates/:idOrTemplateKey`). */
  readonly routePath: string;
  /** The OpenAPI path (`/api/{tenantKey}/{orgKey}/operations/emailTemplates/{idOrTemplateKey}`). */
  readonly path: string;
  readonly doc: RouteDoc;
  /** Scope the bearer token needs; undefined for public routes. */
  readonly scope?: string;
  /** Takes an Idempotency-Key header. */
  readonly idempotent?: boolean;
  /** Who may call it (the document's `x-permissions`). */
  readonly permissions: Permissions;
}

/**
 * The permission matrix entry of an operation: the token scopes that may call it (empty: no token needed) and whether
 * the token's `orgs` patterns must match the path's tenant/org. `admin` holds every right of `application`.
 */
interface Permissions {
  readonly scopes: readonly ('application' | 'admin' | 'operator')[];
  readonly orgs: boolean;
}

/** The permissions of a route by the scope it declares (undefined: a public route). */
function describePermissions(scope: ApiRoute['scope'] | 'operator' | undefined): Permissions {
  if (scope === undefined) return { scopes: [], orgs: false };
  if (scope === 'operator') return { scopes: ['operator'], orgs: false };
  return { scopes: scope === 'application' ? ['application', 'admin'] : ['admin'], orgs: true };
}

/** An operation of the operator API (`/admin`), as the document's `x-operator-operations` lists it. */
interface OperatorOperation {
  readonly method: Method;
  readonly path: string;
  readonly summary: string;
  readonly 'x-permissions': Permissions;
}

/** The operator API's operations (their own token scope, no tenant data). */
export function listOperatorOperations(routes: readonly OperatorRoute[]): OperatorOperation[] {
  return routes.map((route) => ({
    method: route.method,
    path: toOpenApiPath(route.path),
    summary: route.summary,
    'x-permissions': describePermissions('operator'),
  }));
}

/** `/x/:id` -> `/x/{id}`; `pathParams` replace parameters by literal segments or rename them (`{name}`). */
function toOpenApiPath(pattern: string, pathParams: Readonly<Record<string, string>> = {}): string {
  return pattern.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const fixed = pathParams[name];
    return fixed ?? `{${name}}`;
  });
}

function expand(method: Method, routePath: string, doc: RouteDoc, scope?: ApiRoute['scope'], idempotent = false): DocumentedOperation[] {
  const base = {
    method,
    routePath,
    permissions: describePermissions(scope),
    ...(scope ? { scope } : {}),
    ...(idempotent ? { idempotent } : {}),
  };
  if (!doc.variants || doc.variants.length === 0) return [{ ...base, path: toOpenApiPath(routePath), doc }];
  return doc.variants.map((variant) => {
    const variantDoc: RouteDoc = { ...variant, tags: doc.tags };
    return { ...base, path: toOpenApiPath(routePath, variant.pathParams), doc: variantDoc };
  });
}

/** Every documented operation, in registration order (public routes first). */
export function listDocumentedOperations(publicRoutes: readonly PublicRoute[], apiRoutes: readonly ApiRoute[]): DocumentedOperation[] {
  return [
    ...publicRoutes.flatMap((route) => expand(route.method, route.path, route.doc)),
    ...apiRoutes.flatMap((route) =>
      expand(route.method, `${API_PREFIX}${route.path}`, route.doc, route.scope, acceptsIdempotencyKey(route)),
    ),
  ];
}
