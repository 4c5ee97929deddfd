import type { Principal } from '../auth/token';
import type { Database, TenantScope } from '../db/client';
import type { Platform } from '../runtime/platform';
import type { GroupMember } from '../tenant/atomic-group';
import { openTenantUnit } from '../tenant/unit-of-work';
import type { TenantUnit } from '../tenant/unit-of-work';

/** Everything a handler needs about one request, after routing, auth and tenant scoping. */
export interface ApiContext {
  readonly request: Request;
  readonly url: URL;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  readonly platform: Platform;
  readonly requestId: string;
  /** The tenant/org of the path (`/api/{tenantKey}/{orgKey}`), checked against the token. */
  readonly scope: TenantScope;
  /** The tenant/org's database (`platform.openTenantDatabase`); every store reads and writes through it. */
  readonly db: Database;
  readonly principal: Principal;
  /** Absolute `{origin}/api/{tenantKey}/{orgKey}`. */
  readonly apiBase: string;
  /**
   * The atomic group of `$batch` this request belongs to: its unit of work commits into the group's one batch, and
   * any write of its tenant database or coordinator outside the unit is refused (400), never run alone.
   */
  readonly group?: GroupMember;
  /** The request is one of a `$batch` (sent through `dispatch`), not a client's own. */
  readonly nested: boolean;
  /**
   * Runs another request through the whole application, exactly as if it had been sent alone (target checks, router,
   * token, rate limits, handler, the one catch): what `$batch` runs its requests with, `options.group` for a member
   * of an atomic group. The answer's `x-d1-bookmark` advances this request's read session.
   */
  dispatch(request: Request, options?: DispatchOptions): Promise<Response>;
  /** This request's read session's bookmark (`x-d1-bookmark`), or null before its first D1 call. */
  readBookmark(): string | null;
}

/** How `$batch` runs an inner request: as a member of an atomic group, or alone. */
export interface DispatchOptions {
  readonly group?: GroupMember;
  /** Set by `dispatch` itself: the request is a `$batch`'s. */
  readonly nested?: boolean;
}

/** A public route's context (no tenant from the path, no principal). */
export interface PublicContext {
  readonly request: Request;
  readonly url: URL;
  readonly params: Readonly<Record<string, string>>;
  readonly platform: Platform;
  readonly requestId: string;
  /**
   * A tenant/org's database, for a public route that finds its tenant itself (the token endpoint reads it from the
   * client id): the request's log line names that tenant/org and counts its D1 round trips.
   */
  openTenantDatabase(scope: TenantScope): Promise<Database>;
}

/** An operator route's context (`/admin`): a token with the `operator` scope, no tenant/org. */
export interface OperatorContext extends PublicContext {
  readonly principal: Principal;
}

/** The request's unit of work: its tenant/org's database and scope, and its audit stamp (the clock, the token's subject). */
export function openRequestUnit(ctx: ApiContext): TenantUnit {
  const stamp = { on: ctx.platform.now().toISOString(), by: ctx.principal.subject };
  return openTenantUnit({ db: ctx.db, scope: ctx.scope, stamp, group: ctx.group });
}
