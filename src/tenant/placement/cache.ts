/**
 * Placements remembered in isolate memory, so that the directory is read once per tenant/org and isolate, not
 * per request. An entry may go stale when the tenant/org moves; that is safe because every D1 round trip carries
 * the residency guard of the database it goes to (executor.ts), which sends the request back to the directory.
 * Unplaced tenant/orgs are never remembered (the next write may place them from another isolate).
 */
import type { TenantScope } from '../../db/client';

const MAX_ENTRIES = 10_000;
const placements = new Map<string, string>();

const formatScope = (scope: TenantScope) => `${scope.tenantKey}/${scope.orgKey}`;

/** The database this isolate last saw the tenant/org on. */
export function readCachedPlacement(scope: TenantScope): string | undefined {
  return placements.get(formatScope(scope));
}

export function rememberPlacement(scope: TenantScope, database: string): void {
  const key = formatScope(scope);
  placements.delete(key);
  if (placements.size >= MAX_ENTRIES) {
    const oldest = placements.keys().next();
    if (!oldest.done) placements.delete(oldest.value);
  }
  placements.set(key, database);
}

export function forgetPlacement(scope: TenantScope): void {
  placements.delete(formatScope(scope));
}
