import type { Scope } from '../auth/token';
import type { ApiContext, PublicContext } from './context';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Documentation carried by a route, read by the OpenAPI generator. */
export interface RouteDoc {
  readonly summary: string;
  readonly tags: readonly string[];
  readonly operationId: string;
  /** Extra facts (status codes, body and answer schemas) for the OpenAPI document. */
  readonly [name: string]: unknown;
}

export interface ApiRoute {
  readonly method: Method;
  /** itty-router pattern relative to `/api/:tenantKey/:orgKey` (e.g. `/operations/emailTemplates/:idOrKey`). */
  readonly path: string;
  readonly scope: Scope;
  readonly doc: RouteDoc;
  handle(ctx: ApiContext): Promise<Response>;
}

export interface PublicRoute {
  readonly method: Method;
  readonly path: string;
  readonly doc: RouteDoc;
  handle(ctx: PublicContext): Promise<Response> | Response;
}
