/**
 * The platform boundary: everything the application needs from its runtime, in one small interface.
 * The Worker entry builds it from Cloudflare bindings (`cloudflare.ts`); another runtime (Deno) supplies its
 * own implementations with the same guarantees. No code outside `src/platform/` touches a D1 binding: tenant
 * data is reached through `openTenantDatabase` only.
 */
import type { AppConfig } from '../config/env';
import type { Coordinator } from '../coordinator/commands';
import type { Database, TenantScope } from '../db/client';
import type { RoundTripMeter } from './d1-meter';

/** Which tenant/org's database to open, and where to count its D1 round trips. */
export interface TenantDatabaseRequest extends TenantScope {
  /** The request's (or command's) round trip count; each statement and each batch adds one. */
  readonly meter?: RoundTripMeter;
}

/** The key-value cache (KV on Cloudflare; in memory under Deno): what the application uses of it. */
export interface CacheStore {
  get(key: string, type: 'json'): Promise<unknown>;
  put(key: string, value: string, options?: { readonly expirationTtl?: number }): Promise<void>;
}

export interface Platform {
  /**
   * The database that holds the tenant/org's records, standard lists (cultures, currencies) included: the one way
   * a handler, store, command or job reaches tenant data.
   */
  openTenantDatabase(request: TenantDatabaseRequest): Promise<Database>;
  /** Every database that holds tenant/org records, for jobs that scan across tenants (the cron trigger). */
  openEveryTenantDatabase(): Promise<readonly Database[]>;
  readonly cache: CacheStore;
  readonly config: AppConfig;
  /** The tenant/org's serial coordinator. */
  coordinator(scope: TenantScope): Coordinator;
  /** The clock (injectable for tests). */
  now(): Date;
  /** Lets work finish after the response is sent (ctx.waitUntil on Workers). */
  waitUntil(promise: Promise<unknown>): void;
  /** A static asset of public/ by path (`/docs-assets.json`); undefined when there is none. */
  readAsset(path: string): Promise<Response | undefined>;
}
