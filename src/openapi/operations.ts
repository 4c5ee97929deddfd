/** Routes -> documented operations: OpenAPI paths, one operation per route (or per variant of a route). */
import { API_PREFIX } from '../http/app';
import type { ApiRoute, Method, PublicRoute, RouteDoc } from '../http/route';
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
}

/** `/x/:id` -> `/x/{id}`; `pathParams` replace parameters by literal segments or rename them (`{name}`). */
export function toOpenApiPath(pattern: string, pathParams: Readonly<Record<string, string>> = {}): string {
  return pattern.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const fixed = pathParams[name];
    return fixed ?? `{${name}}`;
  });
}

function expand(method: Method, routePath: string, doc: RouteDoc, scope?: string, idempotent = false): DocumentedOperation[] {
  const base = { method, routePath, ...(scope ? { scope } : {}), ...(idempotent ? { idempotent } : {}) };
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
