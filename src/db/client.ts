import { drizzle } from 'drizzle-orm/d1';
import type { DrizzleD1Database } from 'drizzle-orm/d1';

export type Database = DrizzleD1Database;

const clients = new WeakMap<D1Database, Database>();

/** One drizzle client per D1 binding object. */
export function readDatabase(binding: D1Database): Database {
  let client = clients.get(binding);
  if (!client) {
    client = drizzle(binding);
    clients.set(binding, client);
  }
  return client;
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
