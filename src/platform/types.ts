/**
 * The platform boundary: everything the application needs from its runtime, in one small interface.
 * The Worker entry builds it from Cloudflare bindings (`cloudflare.ts`); another runtime (Deno) can
 * supply its own implementations with the same guarantees.
 */

/** The per-tenant/org serial coordinator (a Durable Object on Cloudflare). */
export interface Coordinator {
  /** Sends one command to the tenant/org's coordinator; commands for one tenant/org run one at a time. */
  send<T>(command: CoordinatorCommand): Promise<T>;
}

export interface CoordinatorCommand {
  readonly type: string;
  readonly tenantKey: string;
  readonly orgKey: string;
  /** Optional: a command sent while one with the same joinKey is queued and not yet started shares its result. */
  readonly joinKey?: string;
  readonly [name: string]: unknown;
}

/** A per-key request counter: Cloudflare's Rate Limiting binding, or its in-process equivalent under Deno. */
export interface RateLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** The request limits of `/api` requests (absent: rate limiting is off). */
export interface RateLimits {
  /** Requests allowed per key in each period. */
  readonly limit: number;
  readonly periodSeconds: number;
  /** Keyed by `tenantKey/orgKey`. */
  readonly org: RateLimiter;
  /** Keyed by the token's subject (across every tenant/org it uses). */
  readonly subject: RateLimiter;
}

export interface AppConfig {
  /** HS256 secret for bearer tokens (may be empty when only JWKS is used). */
  readonly jwtSecret: string;
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: string;
  /** `development` (APP_ENV, set by `npm start` and `npm run start:deno`): the API reference shows how to mint a token. */
  readonly environment: 'production' | 'development';
  /** Requests per minute per tenant/org and per token subject; 0 turns rate limiting off. */
  readonly rateLimitPerMinute: number;
}

export interface Platform {
  readonly db: D1Database;
  readonly cache: KVNamespace;
  readonly config: AppConfig;
  /** Absent when rate limiting is off (RATE_LIMIT_PER_MINUTE=0, or inside a coordinator). */
  readonly rateLimits?: RateLimits;
  coordinator(tenantKey: string, orgKey: string): Coordinator;
  /** The clock (injectable for tests). */
  now(): Date;
  /** Lets work finish after the response is sent (ctx.waitUntil on Workers). */
  waitUntil(promise: Promise<unknown>): void;
  /** A static asset of public/ by path (`/docs-assets.json`); undefined when there is none. */
  readAsset(path: string): Promise<Response | undefined>;
}
