/**
 * The platform boundary: everything the application needs from its runtime, in one small interface.
 * The Worker entry builds it from Cloudflare bindings (`cloudflare/platform.ts`); another runtime (`deno/`) supplies
 * its own implementations with the same guarantees. No code outside `src/runtime/` and `src/tenant/` (its `d1/`,
 * `placement/`, `backup/` and `databases.ts`) touches a D1 binding: tenant data is reached through
 * `openTenant` only.
 */
import type { AppConfig } from '../config/env';
import type { Coordinator } from '../coordinator/commands';
import type { TenantScope } from '../db/client';
import type { TenantExecutor } from '../tenant/placement/executor';
import type { DatabaseScan } from '../tenant/placement/scan';
import type { RoundTripMeter } from '../tenant/d1/meter';
import type { WriteWatcher } from '../tenant/d1/watch';

export type { WriteWatcher } from '../tenant/d1/watch';
import type { ReadSession } from '../tenant/placement/bookmark';
import type { PlacementOperations } from '../tenant/placement/operations';
import type { BackupOperations } from '../tenant/backup/operations';
import type { LiveGrant } from '../live/grant';

/** Which tenant/org's database to open, where to count its D1 round trips, and the read session it belongs to. */
export interface TenantDatabaseRequest extends TenantScope {
  /** The request's (or command's) round trip count; each statement and each batch adds one. */
  readonly meter?: RoundTripMeter;
  /** The request's D1 session (bookmarks, replicas); absent: every statement goes to the primary. */
  readonly session?: ReadSession;
  /**
   * The error every write batch is refused with, before it reaches D1 (a member of an atomic group of `$batch`: its
   * writes go through its unit of work into the group's batch; any other would commit alone).
   */
  refuseWrites?(): Error;
}

/** What a write watcher may use of the invocation that wrote. */
export interface WatchContext {
  readonly deliveries: DeliveryQueue;
  readonly live: LiveStreams;
  now(): Date;
  waitUntil(promise: Promise<unknown>): void;
}

/** A service's watcher of one tenant/org's writes (undefined: nothing to watch). */
export type WriteWatcherFactory = (scope: TenantScope, context: WatchContext) => WriteWatcher | undefined;

/**
 * Live streams of the change feed (src/live/): served by the tenant/org's Durable Object on Cloudflare (WebSockets
 * hibernated, Server-Sent Events streamed from it), by the in-process hubs under Deno (src/runtime/deno/live.ts).
 */
export interface LiveStreams {
  /**
   * Opens the stream `grant` describes on `request` (a WebSocket upgrade, or Server-Sent Events): the answer to send,
   * whose headers the app may still set. Throws an ApiError when the limits refuse it (429 TooManyStreams) or its
   * ticket was used already (401).
   */
  open(request: Request, grant: LiveGrant): Promise<Response>;
  /**
   * A write of the tenant/org committed: its feed reaches at least `seq` (the live write watcher, off the answer's
   * path). Answers whether any stream of the tenant/org is open.
   */
  notify(scope: TenantScope, seq: number): Promise<boolean>;
  /** The API client was revoked or deleted at `revokedAt` (epoch seconds): the streams its tokens opened end. */
  revokeClient(scope: TenantScope, clientId: string, revokedAt: number): Promise<void>;
}

/** A POST to a webhook receiver: the URL, the body and the headers. */
export interface ReceiverPost {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Sends a receiver's POST over a connection to one of `addresses` (the public addresses its host was just checked to
 * resolve to, src/services/events/host-check.ts) while TLS (SNI, the certificate's name) and `Host` name the URL's
 * host: the name is not resolved again between the check and the connection. Redirects are not followed.
 */
export type PinnedFetch = (post: ReceiverPost, addresses: readonly string[], signal: AbortSignal) => Promise<Response>;

/** The key-value cache (KV on Cloudflare; in memory under Deno): what the application uses of it. */
export interface CacheStore {
  get(key: string, options: 'json' | { readonly type: 'json'; readonly cacheTtl?: number }): Promise<unknown>;
  put(key: string, value: string, options?: { readonly expirationTtl?: number }): Promise<void>;
}

/** A per-key request counter: Cloudflare's Rate Limiting binding, or its in-process equivalent under Deno. */
export interface RateLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * One caller's share of its tenant/org's limit: half of it (rounded up), so that one caller (token subject), with
 * batches or without, never spends the whole budget of a tenant/org its other callers share.
 */
export function callerShareOf(limit: number): number {
  return Math.ceil(limit / 2);
}

/** The request limits of `/api` requests (absent: rate limiting is off). */
export interface RateLimits {
  /** Requests allowed per key in each period. */
  readonly limit: number;
  readonly periodSeconds: number;
  /** Keyed by `tenantKey/orgKey`. */
  readonly org: RateLimiter;
  /** Requests one caller (token subject) may send per period to one tenant/org: its share of `limit`. */
  readonly callerLimit: number;
  /** Keyed by `tenantKey/orgKey/subject`: one caller's share of its tenant/org. */
  readonly caller: RateLimiter;
  /** Keyed by the token's subject (across every tenant/org it uses). */
  readonly subject: RateLimiter;
  /**
   * Failed client authentications at `/connect/token`, keyed by client id and by source address, with limits of
   * their own (src/services/identity/failed-authentications.ts).
   */
  readonly authFailures: RateLimiter;
}

/** A webhook delivery job: deliver the subscription's pending events (the consumer reads them from its cursor). */
export interface DeliveryMessage extends TenantScope {
  readonly subscriptionId: string;
}

/** A queue message as the consumer sees it: its id stays the same across retries. */
export interface DeliveryJob {
  readonly id: string;
  readonly body: DeliveryMessage;
}

/** A delivery job's outcome: done, or to be tried again after a delay. */
export type DeliveryOutcome = { readonly ack: true } | { readonly retryAfterSeconds: number };

/** The delivery queue's producer: a Cloudflare Queue, or its persisted in-process equivalent under Deno. */
export interface DeliveryQueue {
  send(message: DeliveryMessage, options?: { readonly delaySeconds?: number }): Promise<void>;
}

/** What storing a file answered: its size, or that it passed `maxBytes` (nothing is kept then). */
export type StoredFile = { readonly size: number } | { readonly tooLarge: true };

/**
 * Files of imports (R2 bucket IMPORT_FILES on Cloudflare; a directory under Deno). A file is written once from a stream
 * (never held whole: large files go up in parts) and read back as a stream, as often as needed.
 */
export interface FileStore {
  /** Streams `body` to `key`; past `maxBytes` the upload is abandoned and nothing is kept. */
  put(key: string, body: ReadableStream<Uint8Array>, options: { readonly maxBytes: number }): Promise<StoredFile>;
  /** The file's bytes from byte `offset` (default 0: its start) to its end (undefined: no such file). */
  read(key: string, offset?: number): Promise<ReadableStream<Uint8Array> | undefined>;
  delete(key: string): Promise<void>;
}

/**
 * A file import's durable run (the Workflow's parameters): the tenant/org, the import and who asked. `task`: absent,
 * the import's processing (a cancel's undo included); `revert`, the undo of a succeeded import (revertImportFile).
 */
export interface ImportJob extends TenantScope {
  readonly importId: string;
  readonly by: string;
  readonly task?: 'revert';
}

/** The id of a job's run (a Workflow instance's id): the import's id, `<id>-revert` for its revert. */
export function buildRunId(job: ImportJob): string {
  return job.task === 'revert' ? `${job.importId}-revert` : job.importId;
}

/**
 * Times a durable step is tried again when it fails (a D1 or storage hiccup), with delays of 2 s doubling, before it
 * fails for good: the Workflow's step config and the Deno runner's alike.
 */
export const STEP_RETRIES = 5;

/** What a runtime's durable step throws when its work failed on every try (the last error is its `cause`). */
export class StepFailed extends Error {
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(`Step ${step} failed ${STEP_RETRIES + 1} times: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StepFailed';
  }
}

/**
 * A runtime's durable step: runs `work` once, remembering its (JSON) result by `name` across restarts and retries;
 * throws StepFailed when the work failed on every try.
 */
export type RunStep = <T extends Readonly<Record<string, unknown>>>(name: string, work: () => Promise<T>) => Promise<T>;

/** A runtime's durable wait (a Workflow's `step.sleep`; a timer under Deno). */
export type SleepStep = (name: string, milliseconds: number) => Promise<void>;

/** What processes one import, given the runtime's durable steps and platform (src/services/imports/process-steps.ts). */
export type ImportProcessor = (
  steps: { readonly run: RunStep; readonly sleep: SleepStep },
  platform: Platform,
  job: ImportJob,
) => Promise<void>;

/**
 * Runs file imports durably: a Cloudflare Workflow (binding IMPORT_WORKFLOW) on Workers; under Deno the in-process
 * runner whose steps are persisted in SQLite and resumed at start-up (src/runtime/deno/import-runner.ts).
 */
export interface ImportRunner {
  /** Starts the job's run (once per run id, buildRunId: a second start is ignored). */
  start(job: ImportJob): Promise<void>;
}

export interface Platform {
  /**
   * The executor of the tenant/org's statements (standard lists, cultures and currencies, included): the one way a
   * session (src/tenant/session.ts) reaches tenant data. It follows the tenant/org wherever it is placed or moved.
   */
  openTenant(request: TenantDatabaseRequest): TenantExecutor;
  /** Every tenant database, read-only, for jobs that scan across tenants (the cron trigger). */
  scanTenantDatabases(): readonly DatabaseScan[];
  /** Placements and moves of tenant/orgs (the operator API). */
  readonly placements: PlacementOperations;
  /** Snapshots and point-in-time restores of tenant/orgs (the operator API). */
  readonly backups: BackupOperations;
  readonly cache: CacheStore;
  readonly config: AppConfig;
  /** Absent when rate limiting is off (RATE_LIMIT_PER_MINUTE=0, or inside a coordinator). */
  readonly rateLimits?: RateLimits;
  /**
   * The tenant/org's serial coordinator; with a session, the bookmarks of its D1 writes join that session; with a
   * meter, its commands' D1 round trips are added to it (a request's log line counts them).
   */
  coordinator(scope: TenantScope, session?: ReadSession, meter?: RoundTripMeter): Coordinator;
  /** Webhook deliveries (the Worker's queue, or the persisted in-process queue under Deno). */
  readonly deliveries: DeliveryQueue;
  /** Live streams of the change feed (the tenant/org's Durable Object, or Deno's in-process hubs). */
  readonly live: LiveStreams;
  /** Uploaded import files (R2 IMPORT_FILES, or a directory under Deno). */
  readonly files: FileStore;
  /** Processing of uploaded imports (Workflow, or the Deno runner). */
  readonly imports: ImportRunner;
  /** The clock (injectable for tests). */
  now(): Date;
  /** Lets work finish after the response is sent (ctx.waitUntil on Workers). */
  waitUntil(promise: Promise<unknown>): void;
  /** A static asset of public/ by path (`/docs-assets.json`); undefined when there is none. */
  readAsset(path: string): Promise<Response | undefined>;
  /**
   * Webhook POSTs connected to the addresses the DNS rule checked (Deno). Absent on Workers, whose fetch connects
   * through Cloudflare's network, which resolves the name itself and does not connect to private or reserved addresses.
   */
  readonly pinnedFetch?: PinnedFetch;
}
