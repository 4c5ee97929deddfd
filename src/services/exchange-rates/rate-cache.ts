/**
 * The lookup cache (docs/storage.md, "Exchange rates"). Freshness comes from the tenant/org's Durable Object:
 * every acknowledged write bumps the `exchangeRates` generation there, and every lookup reads it first. Cached
 * values are keyed by that generation, so an entry can only ever be served to a lookup that started before the
 * next write was acknowledged. KV is the shared second level; this isolate's memory is the first.
 */
import { callWithRetries } from '../../coordinator/retry';
import type { TenantScope } from '../../db/client';
import type { ApiContext } from '../../http/context';
import type { Platform } from '../../runtime/platform';

const RATES_GENERATION = 'exchangeRates';
/** KV keeps an entry 5 minutes: stale generations are never read again, so the TTL only frees space and bounds
 * staleness if a generation bump ever fails after a commit (that write is answered 500, never acknowledged). */
const KV_TTL_SECONDS = 300;
const MEMORY_TTL_MS = 60_000;
const MEMORY_MAX_ENTRIES = 500;

const memory = new Map<string, { value: unknown; expires: number }>();

export function loadRatesGeneration(ctx: ApiContext): Promise<number> {
  return ctx.platform.coordinator(ctx.tenant.scope).send({ type: 'generation.read', ...ctx.tenant.scope, name: RATES_GENERATION });
}

/** Called after a write is committed and before it is acknowledged; a failure (after retries) fails the request. */
export function bumpRatesGeneration(platform: Platform, scope: TenantScope): Promise<number> {
  // A bump twice is harmless (it only retires cache entries): every failure is retried.
  return callWithRetries(
    () => platform.coordinator(scope).send({ type: 'generation.bump', ...scope, name: RATES_GENERATION }),
    () => true,
  );
}

function buildCacheKey(scope: TenantScope, generation: number, name: string): string {
  return `xr/${scope.tenantKey}/${scope.orgKey}/g${generation}/${name}`;
}

function remember(key: string, value: unknown, now: number): void {
  if (memory.size >= MEMORY_MAX_ENTRIES) {
    const oldest = memory.keys().next();
    if (!oldest.done) memory.delete(oldest.value);
  }
  memory.set(key, { value, expires: now + MEMORY_TTL_MS });
}

/**
 * Memory, then KV, then `load` (D1); a loaded value is written back to both levels. `isEntry` tells a cached value
 * of this kind apart from anything else (an entry of an older format counts as a miss).
 */
export async function loadThroughCache<T>(
  ctx: ApiContext,
  generation: number,
  name: string,
  isEntry: (value: unknown) => value is T,
  load: () => Promise<T>,
): Promise<T> {
  const key = buildCacheKey(ctx.tenant.scope, generation, name);
  const now = Date.now();
  const held = memory.get(key);
  if (held && held.expires > now && isEntry(held.value)) return held.value;
  const shared: unknown = await ctx.platform.cache.get(key, 'json');
  if (isEntry(shared)) {
    remember(key, shared, now);
    return shared;
  }
  const value = await load();
  remember(key, value, now);
  ctx.platform.waitUntil(ctx.platform.cache.put(key, JSON.stringify(value), { expirationTtl: KV_TTL_SECONDS }));
  return value;
}
