import type { GenericSchema } from 'valibot';
import type { Scope } from '../auth/token';
import type { Answered, AnswerOf, ResponseDocs } from './answer';
import type { ApiContext, OperatorContext, PublicContext } from './context';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A schema in the OpenAPI document: a valibot schema (converted with @valibot/to-json-schema; a schema listed in
 * some route's `schemas` becomes a named component and is referenced wherever it appears) or a JSON Schema.
 */
export type DocSchema = GenericSchema<unknown, unknown> | { readonly json: Readonly<Record<string, unknown>> };

export interface ParameterDoc {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly description: string;
  /** Path parameters are always required. */
  readonly required?: boolean;
  readonly schema: DocSchema;
}

interface BodyDoc {
  readonly description: string;
  readonly schema: DocSchema;
  /** false: the body may be empty (inputs may come from the query string instead). */
  readonly required?: boolean;
  /** Media type of the body (default application/json). */
  readonly contentType?: string;
  /** Further media types the body may have (same schema). */
  readonly moreContentTypes?: readonly string[];
}

/** Response headers the document knows (see src/openapi/components.ts). */
export type HeaderName =
  | 'Location'
  | 'ETag'
  | 'Allow'
  | 'WWW-Authenticate'
  | 'Retry-After'
  | 'RateLimit'
  | 'RateLimit-Policy'
  | 'Cache-Control'
  | 'Preference-Applied';

export interface ResponseDoc {
  readonly description: string;
  /** Media type of the body (default application/json; problem+json for errors). */
  readonly contentType?: string;
  /** JSON body; none: an empty body (for 4xx/5xx statuses: the problem+json body). */
  readonly schema?: DocSchema;
  /** Further media types the answer may have, with their schemas (a multipart `$batch` answer). */
  readonly moreContentTypes?: Readonly<Record<string, DocSchema>>;
  readonly headers?: readonly HeaderName[];
}

/** What every documented operation says. */
export interface OperationDoc {
  readonly summary: string;
  readonly operationId: string;
  readonly description?: string;
  /** Path and query parameters (path parameters not listed are documented as strings). */
  readonly parameters?: readonly ParameterDoc[];
  readonly requestBody?: BodyDoc;
  /** Responses by status: the success answer and errors with a meaning of their own (e.g. 404). */
  readonly responses?: Readonly<Record<number, ResponseDoc>>;
  /** Further error statuses (problem+json) besides the ones every operation of its kind has. */
  readonly errors?: readonly number[];
  /** Named valibot schemas (components) this operation's schemas use. */
  readonly schemas?: Readonly<Record<string, GenericSchema<unknown, unknown>>>;
  /** Security requirements of a public operation (API operations need the bearer token with their route's scope). */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
}

/** One documented operation of a route whose path parameter takes fixed values (one per attribute). */
export interface RouteDocVariant extends OperationDoc {
  /** Path parameter -> the literal segment, or `{name}` to document the parameter under another name. */
  readonly pathParams: Readonly<Record<string, string>>;
}

/** Documentation carried by a route, read by the OpenAPI generator (src/openapi/). */
export interface RouteDoc extends OperationDoc {
  readonly tags: readonly string[];
  /** One documented operation per value of a path parameter (e.g. one per attribute), instead of this doc. */
  readonly variants?: readonly RouteDocVariant[];
}

type ResponseDocsOf<D extends OperationDoc> = NonNullable<D['responses']>;

declare const TYPED: unique symbol;

/** A route built by defineApiRoute or definePublicRoute: its handler answers what its doc's schemas describe. */
interface Typed {
  readonly [TYPED]: true;
}

/**
 * A route's doc whose responses are `R` (kept literal: the handler's answers are typed from them); a route documented
 * as one operation per path value (`variants`) answers what its variants document.
 */
interface TypedRouteDoc<R extends ResponseDocs> extends Omit<RouteDoc, 'responses' | 'variants'> {
  readonly responses?: R & ResponseDocsOf<RouteDoc>;
  readonly variants?: readonly (RouteDocVariant & { readonly responses: R & ResponseDocsOf<RouteDoc> })[];
}

interface ApiRouteDefinition<R extends ResponseDocs> {
  readonly method: Method;
  /** itty-router pattern relative to `/api/:tenantKey/:orgKey` (e.g. `/operations/emailTemplates/:idOrKey`). */
  readonly path: string;
  readonly scope: Scope;
  readonly doc: TypedRouteDoc<R>;
  /** A POST that only reads (a lookup): it takes no Idempotency-Key. Every other POST honours one. */
  readonly readOnly?: boolean;
  /**
   * The handler streams the body itself (file uploads, far beyond the 1 MiB a body is buffered to): no Idempotency-Key,
   * whose fingerprint would read the whole body first.
   */
  readonly streamsBody?: boolean;
  /** Without an `Authorization` header, a stream ticket (`?ticket=`, src/auth/stream-ticket.ts) stands for the token. */
  readonly acceptsTicket?: boolean;
  /** Answers one of the documented success statuses with exactly its schema's output. */
  handle(ctx: ApiContext): Promise<AnswerOf<R>>;
}

/** A tenant/org route (made by defineApiRoute). */
export interface ApiRoute extends Typed {
  readonly method: Method;
  readonly path: string;
  readonly scope: Scope;
  readonly doc: RouteDoc;
  readonly readOnly?: boolean;
  readonly acceptsTicket?: boolean;
  handle(ctx: ApiContext): Promise<Answered>;
}

interface PublicRouteDefinition<R extends ResponseDocs> {
  readonly method: Method;
  readonly path: string;
  readonly doc: TypedRouteDoc<R>;
  handle(ctx: PublicContext): Promise<AnswerOf<R>> | AnswerOf<R>;
}

/** A route without a token (made by definePublicRoute). */
export interface PublicRoute extends Typed {
  readonly method: Method;
  readonly path: string;
  readonly doc: RouteDoc;
  handle(ctx: PublicContext): Promise<Answered> | Answered;
}

/** A tenant/org route whose handler's answers are typed by the schemas its doc documents per status. */
export function defineApiRoute<const R extends ResponseDocs>(route: ApiRouteDefinition<R>): ApiRoute {
  return route as ApiRouteDefinition<R> & Typed;
}

/** A public route whose handler's answers are typed by the schemas its doc documents per status. */
export function definePublicRoute<const R extends ResponseDocs>(route: PublicRouteDefinition<R>): PublicRoute {
  return route as PublicRouteDefinition<R> & Typed;
}

/**
 * A route of the standard OData v4 service root (`/odata/{tenantKey}/{orgKey}`, src/odata-service/): admitted as an
 * API route of scope `application`, described by the service's own `$metadata` rather than the OpenAPI document.
 */
export interface ServiceRootRoute {
  readonly method: Method;
  /** itty-router pattern relative to `/odata/:tenantKey/:orgKey`. */
  readonly path: string;
  handle(ctx: ApiContext): Promise<Response>;
}

/** The standard service root: its routes, and what every answer of them goes through last (errors included). */
export interface ServiceRoot {
  readonly routes: readonly ServiceRootRoute[];
  finish(response: Response, request: Request): Promise<Response>;
}

/** An operator route (`/admin/...`, scope `operator`): placements of tenant/orgs, not tenant data. */
export interface OperatorRoute {
  readonly method: Method;
  /** itty-router pattern, absolute (e.g. `/admin/placements/:tenantKey/:orgKey`). */
  readonly path: string;
  readonly summary: string;
  handle(ctx: OperatorContext): Promise<Answered>;
}
