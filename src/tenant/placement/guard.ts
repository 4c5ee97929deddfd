/**
 * The residency guard: the statement put first in every D1 batch run for a tenant/org (executor.ts), so that the
 * database itself says, in the same transaction and round trip, whether it holds the tenant/org.
 */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';

/**
 * The condition of a self-guarded read: the tenant/org is readable here (`active` or `moving`), so any row the read
 * answers was read while the tenant/org was readable on this database. Such a read is run as a `residentRead` (its
 * caller says so): without the guard statement; only an empty answer (not found, or not here) costs the guarded batch
 * after it. Values or placeholders.
 */
export function buildResidentCondition(scope: { readonly tenantKey: unknown; readonly orgKey: unknown }): SQL {
  return sql`EXISTS (SELECT 1 FROM tenant_residency WHERE tenant_key = ${scope.tenantKey} AND org_key = ${scope.orgKey} AND state IN ('active', 'moving'))`;
}

/** Reads: answers the tenant/org's residency state here (no row: not here). */
export const READ_GUARD = 'SELECT state FROM tenant_residency WHERE tenant_key = ? AND org_key = ?';

/** Writes: aborts the batch with `tenant_moving` or `tenant_not_resident` unless the state here is `active` (migration 0003). */
export const WRITE_GUARD = 'INSERT INTO tenant_write_guard (tenant_key, org_key) VALUES (?, ?)';

type Refusal = 'moving' | 'not_resident';

/** Why the write guard refused a batch, or null for any other error. */
export function readRefusal(error: unknown): Refusal | null {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  if (text.includes('tenant_moving')) return 'moving';
  if (text.includes('tenant_not_resident')) return 'not_resident';
  return null;
}

/** True when the read guard's state lets the batch's answer stand (reads are served while a move copies). */
export function isReadable(state: unknown): boolean {
  return state === 'active' || state === 'moving';
}
