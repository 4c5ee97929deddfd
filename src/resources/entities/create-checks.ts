/**
 * What a create checks against stored data, without reading it first: custom attribute definitions come from a
 * per-isolate cache and tenant reference keys are not looked up; instead the insert carries SQL conditions that the
 * database evaluates in the same batch (one round trip). A condition that does not hold makes the insert refuse
 * (see `stageCreate`, record-writes.ts); the create then reads everything afresh, answers 400 for what is really wrong, and tries
 * again. Freshness therefore comes from D1 itself, in the write's own transaction: a definition changed by any
 * isolate (or written straight into D1) is seen by the next create.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import type { TenantReader } from '../../tenant/session';
import { refCustomAttributes } from '../reference/tables';
import { loadCustomDefinitionRows } from './custom-attributes';
import type { CustomDefinitionSet } from './custom-attributes';

/** Entries kept per isolate (tenant/org and entity); the oldest goes first beyond it. */
const CACHE_LIMIT = 2000;
const cache = new Map<string, CustomDefinitionSet>();

function cacheKey(scope: TenantScope, entity: string): string {
  return JSON.stringify([scope.tenantKey, scope.orgKey, entity]);
}

/** The cached definitions of an entity, or undefined before the first load on this isolate. */
export function findCachedDefinitions(scope: TenantScope, entity: string): CustomDefinitionSet | undefined {
  return cache.get(cacheKey(scope, entity));
}

/** Reads the definitions from D1 (one round trip) and keeps them for the next creates on this isolate. */
export async function loadFreshDefinitions(tenant: TenantReader, entity: string): Promise<CustomDefinitionSet> {
  const set = await loadCustomDefinitionRows(tenant, entity);
  const key = cacheKey(tenant.scope, entity);
  cache.delete(key);
  cache.set(key, set);
  if (cache.size > CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  return set;
}

/** Forgets the tenant/org's cached definitions (after a `customAttributes` write on this isolate). */
export function forgetCachedDefinitions(scope: TenantScope): void {
  const prefix = JSON.stringify([scope.tenantKey, scope.orgKey]).slice(0, -1);
  for (const key of [...cache.keys()]) if (key.startsWith(`${prefix},`)) cache.delete(key);
}

/** The definitions a create validated with, as its condition binds them: how many, and `[name, type, required]` rows as JSON. */
interface DefinitionsListing {
  readonly count: number | string;
  readonly json: string;
}

/** The listing of a set (null: no definitions, which has a condition of its own). */
export function listDefinitions(set: CustomDefinitionSet): DefinitionsListing | null {
  if (set.rows.length === 0) return null;
  return { count: set.rows.length, json: JSON.stringify(set.rows.map((row) => [row.name, row.type, row.required])) };
}

/**
 * True in SQL when the stored definitions of the entity are exactly the `listed` ones (same names, types and required
 * flags, no more, no fewer; null: none): compared row by row through json_each, so the order of rows does not matter.
 * The scope and listing may be placeholders (a compiled create).
 */
export function buildDefinitionsCondition(scope: TenantScope, entity: string, listed: DefinitionsListing | null): SQL {
  const t = refCustomAttributes;
  const ofEntity = and(scopeCondition(t, scope), eq(t.entity, entity));
  // The usual case, no definitions: a look at the tenant/org's rows of the key index.
  if (listed === null) return sql`NOT EXISTS (SELECT 1 FROM ${t} WHERE ${ofEntity})`;
  return sql`((SELECT count(*) FROM ${t} WHERE ${ofEntity}) = ${listed.count} AND NOT EXISTS (SELECT 1 FROM json_each(${listed.json}) AS listed WHERE NOT EXISTS (SELECT 1 FROM ${t} WHERE ${ofEntity} AND ${t.name} = listed.value ->> 0 AND ${t.type} = listed.value ->> 1 AND ${t.required} IS listed.value ->> 2)))`;
}
