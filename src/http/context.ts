import type { Principal } from '../auth/token';
import type { TenantScope } from '../db/client';
import type { Platform } from '../runtime/platform';
import type { GroupMember } from '../tenant/atomic-group';
import type { TenantSession } from '../tenant/session';

/** Everything a handler needs about one request, after routing, auth and tenant scoping. */
export interface ApiContext {
  readonly request: Request;
  readonly url: URL;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  readonly platform: Platform;
  readonly requestId: string;
  /**
   * The session of the path's tenant/org (`/api/{tenantKey}/{orgKey}`, checked against the token), stamped with the
   * request's clock and the token's subject: every read and write of the request goes through it. In an atomic group
   * of `$batch`, its writes commit into the group's one batch (`tenant.group`).
   */
  readonly tenant: TenantSession;
  readonly principal: Principal;
  /** Absolute `{origin}/api/{tenantKey}/{orgKey}`. */
  readonly apiBase: string;
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
   * A tenant/org's session, for a public route that finds its tenant itself (the token endpoint reads it from the
   * client id): the request's log line names that tenant/org and counts its D1 round trips.
   */
  openTenant(scope: TenantScope): TenantSession;
}

/** An operator route's context (`/admin`): a token with the `operator` scope, no tenant/org. */
export interface OperatorContext extends PublicContext {
  readonly principal: Principal;
}
