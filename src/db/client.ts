/** The database handle every store works with: drizzle over a D1 database (or one that behaves like it). */
import { and, eq } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import type { DrizzleD1Database } from 'drizzle-orm/d1';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/** Drizzle over a D1 database; `$client` is that database (compiled queries run on it, src/tenant/compiled.ts). */
export type Database = DrizzleD1Database & { readonly $client: D1Database };

/**
 * What a batch of tenant statements is, as its caller declares it (the tenant database never reads SQL text to tell):
 * - `read`: reads, answered with the residency read guard (a replica may answer; what drizzle runs by default);
 * - `residentRead`: reads whose own condition proves residency (`buildResidentCondition`): run alone, a row answered
 *   proves it, an empty answer is asked again as a `read`;
 * - `write`: the one write path (the unit of work's commit): the write guard, the primary, the write watchers.
 */
export type BatchKind = 'read' | 'residentRead' | 'write';

/** A D1 database that runs each batch as the kind its caller declares: `as(kind)` is the same database for that kind. */
export interface KindedD1 extends D1Database {
  readonly kind: BatchKind;
  as(kind: BatchKind): KindedD1;
}

function isKinded(client: D1Database): client is KindedD1 {
  return 'as' in client && typeof client.as === 'function';
}

/** The D1 database under `db` for batches of `kind` (a plain D1 binding has no kinds: itself). */
export function readClientOfKind(db: Database, kind: BatchKind): D1Database {
  const client = db.$client;
  return isKinded(client) ? client.as(kind) : client;
}

const byKind = new WeakMap<D1Database, Map<BatchKind, Database>>();

/**
 * Drizzle over the same database whose batches run as `kind` (built once per database and kind). A plain D1 binding
 * (cross-tenant scans, tests, tooling) has no kinds: its statements run as they are.
 */
export function declareBatchKind(db: Database, kind: BatchKind): Database {
  const client = db.$client;
  if (!isKinded(client) || client.kind === kind) return db;
  let kinds = byKind.get(client);
  if (!kinds) byKind.set(client, (kinds = new Map()));
  let found = kinds.get(kind);
  if (!found) kinds.set(kind, (found = drizzle(client.as(kind))));
  return found;
}

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

/** Drizzle over a D1 binding (used by the platform layer only: stores get theirs from `ctx.db`). */
export function openDrizzle(binding: D1Database): Database {
  return drizzle(binding);
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
