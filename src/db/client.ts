/** What tenant statements share: the tenant/org scope, batch kinds, D1's limits and constraint errors. */
import { and, eq } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * What a batch of tenant statements is, as its caller declares it (the tenant executor never reads SQL text to tell):
 * - `read`: reads, answered with the residency read guard (a replica may answer);
 * - `residentRead`: reads whose own condition proves residency (`buildResidentCondition`): run alone, a row answered
 *   proves it, an empty answer is asked again as a `read`;
 * - `write`: the one write path (a session's commit): the write guard, the primary, the write watchers.
 */
export type BatchKind = 'read' | 'residentRead' | 'write';

/** The tenant/org a request, a command or a job works for; every tenant query is scoped by both keys. */
export interface TenantScope {
  readonly tenantKey: string;
  readonly orgKey: string;
}

/** The condition every tenant query carries: the table's `tenant_key` and `org_key` are the scope's. */
export function scopeCondition(
  table: { readonly tenantKey: SQLiteColumn; readonly orgKey: SQLiteColumn },
  scope: TenantScope,
): SQL | undefined {
  return and(eq(table.tenantKey, scope.tenantKey), eq(table.orgKey, scope.orgKey));
}

/** D1 refuses more than 100 bound parameters per statement. */
export const D1_MAX_PARAMETERS = 100;

/**
 * D1 refuses a LIKE or GLOB pattern longer than 50 bytes (UTF-8) when it compares it with a row ("LIKE or GLOB pattern
 * too complex"): no pattern a client's text reaches may be longer.
 */
export const D1_MAX_PATTERN_BYTES = 50;

/**
 * Splits `items` so that a statement binding `perItem` parameters for each item, plus `reserved` others (tenant, org,
 * ...), stays within D1's 100 bound parameters.
 */
export function chunkForParameters<T>(items: readonly T[], perItem: number, reserved = 0): T[][] {
  const size = Math.max(1, Math.floor((D1_MAX_PARAMETERS - reserved) / perItem));
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Keys or ids bound one per item beside a few scope parameters (tenant, org, a parent id): 90 per statement. */
export function chunkKeys<T>(items: readonly T[]): T[][] {
  return chunkForParameters(items, 1, 10);
}

/** A column by field name (names come from a description, so a miss is a bug in it). */
export function requireColumn(columns: Readonly<Record<string, SQLiteColumn>>, table: string, name: string): SQLiteColumn {
  const found = columns[name];
  if (!found) throw new Error(`${table} has no column ${name}`);
  return found;
}

/** The constraint a D1 error reports, if it is a constraint violation. */
export function parseConstraintViolation(error: unknown): 'unique' | 'check' | 'foreignKey' | undefined {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  if (/UNIQUE constraint failed/i.test(text)) return 'unique';
  if (/CHECK constraint failed/i.test(text)) return 'check';
  if (/FOREIGN KEY constraint failed/i.test(text)) return 'foreignKey';
  return undefined;
}
