/** The database handle every store works with: drizzle over a D1 database (or one that behaves like it). */
import { drizzle } from 'drizzle-orm/d1';
import type { DrizzleD1Database } from 'drizzle-orm/d1';

export type Database = DrizzleD1Database;

/** The tenant/org a request, a command or a job works for; every tenant query is scoped by both keys. */
export interface TenantScope {
  readonly tenantKey: string;
  readonly orgKey: string;
}

/** Drizzle over a D1 binding (used by the platform layer only: stores get theirs from `ctx.db`). */
export function openDrizzle(binding: D1Database): Database {
  return drizzle(binding);
}

/** True when a D1 error is a UNIQUE constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : String(error);
  return /UNIQUE constraint failed/i.test(text);
}

/** D1 refuses more than 100 bound parameters per statement: chunk rows so each insert stays under it. */
export const D1_MAX_PARAMETERS = 100;

export function chunkRows<T>(rows: readonly T[], parametersPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(D1_MAX_PARAMETERS / parametersPerRow));
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size) chunks.push(rows.slice(start, start + size));
  return chunks;
}
