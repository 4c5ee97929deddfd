/**
 * What the Worker tells the tenant/org's object when it opens a live stream: who (checked by the Worker exactly as
 * `GET /changes` is: token or ticket, scope, orgs, revocation), what it asked for, and from where. The object trusts it:
 * it is reachable only through the Worker's binding (Cloudflare) or in process (Deno).
 */

/** How the stream is carried: Server-Sent Events or a WebSocket. */
export type LiveTransportKind = 'sse' | 'ws';

export interface LiveGrant {
  readonly tenantKey: string;
  readonly orgKey: string;
  readonly transport: LiveTransportKind;
  readonly subject: string;
  /** The API client of the token (its revocation ends the stream), when the token names one. */
  readonly clientId?: string;
  /** The token's `iat` (epoch seconds): a revocation after it ends the stream. */
  readonly issuedAt?: number;
  /** The token's `exp` (epoch seconds): the stream ends then. */
  readonly expiresAt: number;
  /** Digest of the bearer token (a ticket carries its token's): the per-token limit counts by it. */
  readonly tokenKey: string;
  /** The stream ticket that opened it (used once), if one did: its id and expiry (epoch seconds). */
  readonly ticket?: { readonly id: string; readonly until: number };
  /** A service prefix (`operations`, `operations/emailTemplates`) or `*`. */
  readonly resource: string;
  /** The last sequence number the client has: the stream sends every event after it (checked against the feed). */
  readonly since: number;
}

/** The internal header that carries the grant from the Worker to the object. */
export const LIVE_GRANT_HEADER = 'x-live-grant';

function isLiveGrant(value: unknown): value is LiveGrant {
  if (typeof value !== 'object' || value === null) return false;
  const grant = value as Record<string, unknown>;
  return (
    typeof grant.tenantKey === 'string' &&
    typeof grant.orgKey === 'string' &&
    (grant.transport === 'sse' || grant.transport === 'ws') &&
    typeof grant.subject === 'string' &&
    typeof grant.expiresAt === 'number' &&
    typeof grant.tokenKey === 'string' &&
    typeof grant.resource === 'string' &&
    typeof grant.since === 'number'
  );
}

/** The grant a request to the object carries (the Worker wrote it); throws when it carries none. */
export function readLiveGrant(request: Request): LiveGrant {
  const raw = request.headers.get(LIVE_GRANT_HEADER);
  const grant: unknown = raw === null ? null : JSON.parse(raw);
  if (!isLiveGrant(grant)) throw new Error('A live stream request reached the object without its grant.');
  return grant;
}
