/**
 * Tokens of a revoked or deleted API client stop working within 60 s, without a D1 read per request.
 *
 * Revoking or deleting a client writes `revoked-client:<clientId>` (the revocation time, epoch seconds) to the cache
 * (KV), kept as long as any token of the client may live. A request whose token carries a `client_id` claim (the
 * tokens `/connect/token` issues) is refused 401 when that client was revoked at or after the token's `iat`. The
 * lookup is a KV read with a 30 s edge cache, remembered by the isolate for 30 s: at most one KV read per client per
 * isolate every 30 s, and a revocation reaches every location within 60 s (KV's cache time plus the isolate's);
 * the isolate that revoked knows at once. Tokens without `client_id` (minted by an identity provider, or by
 * `npm run token`) are not looked up: their issuer revokes them.
 */
import { ApiError } from '../errors/api-error';
import type { CacheStore } from '../runtime/platform';
import { MAX_TOKEN_LIFETIME_SECONDS } from './token';
import type { Principal } from './token';

/** How long the isolate and KV's edge cache may keep an answer: together at most 60 s. */
const REMEMBER_MS = 30_000;
const KV_CACHE_TTL_SECONDS = 30;
const MAX_REMEMBERED = 10_000;

const revocationKey = (clientId: string): string => `revoked-client:${clientId}`;

/** Revocation times (epoch seconds; null: not revoked) by client id, as last read, with when to read again. */
const remembered = new Map<string, { readonly revokedAt: number | null; readonly until: number }>();

function remember(clientId: string, revokedAt: number | null, nowMs: number): void {
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(clientId, { revokedAt, until: nowMs + REMEMBER_MS });
}

function readRevokedAt(value: unknown): number | null {
  if (typeof value === 'object' && value !== null && 'revokedAt' in value && typeof value.revokedAt === 'number') return value.revokedAt;
  return null;
}

/** Records that every token of the client issued until now is void (revoke, delete). */
export async function recordClientRevocation(cache: CacheStore, clientId: string, now: Date): Promise<void> {
  const revokedAt = Math.floor(now.getTime() / 1000);
  remember(clientId, revokedAt, Date.now());
  // Kept while a token issued before the revocation may still be within its lifetime (plus clock skew).
  await cache.put(revocationKey(clientId), JSON.stringify({ revokedAt }), { expirationTtl: MAX_TOKEN_LIFETIME_SECONDS + 120 });
}

/** True when the token (its client and issue time) was voided by a revocation of its client. */
async function isTokenRevoked(cache: CacheStore, clientId: string, issuedAt: number | undefined, nowMs: number): Promise<boolean> {
  let entry = remembered.get(clientId);
  if (!entry || entry.until <= nowMs) {
    const revokedAt = readRevokedAt(await cache.get(revocationKey(clientId), { type: 'json', cacheTtl: KV_CACHE_TTL_SECONDS }));
    remember(clientId, revokedAt, nowMs);
    entry = remembered.get(clientId);
  }
  const revokedAt = entry?.revokedAt ?? null;
  // A token without iat cannot show it came after the revocation.
  return revokedAt !== null && (issuedAt === undefined || issuedAt <= revokedAt);
}

/** Whether a token of `clientId` issued at `issuedAt` was voided by a revocation (as a request's check finds it). */
export function isClientRevoked(cache: CacheStore, clientId: string, issuedAt: number | undefined): Promise<boolean> {
  return isTokenRevoked(cache, clientId, issuedAt, Date.now());
}

/** 401 when the principal's token was issued to an API client that has since been revoked or deleted. */
export async function checkTokenNotRevoked(cache: CacheStore, principal: Principal): Promise<void> {
  if (principal.clientId === undefined) return;
  if (!(await isTokenRevoked(cache, principal.clientId, principal.issuedAt, Date.now()))) return;
  const detail = 'The API client this token was issued to has been revoked or deleted.';
  throw new ApiError('Unauthorized', detail, {
    headers: { 'www-authenticate': `Bearer realm="erp-edge-api", error="invalid_token", error_description="${detail}"` },
  });
}
