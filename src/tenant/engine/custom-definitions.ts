/**
 * The condition an entity insert can carry on the custom attribute definitions it was validated with: the create reads
 * no definitions first (they come from the isolate's cache) and the database refuses the insert, in the same batch,
 * when the stored definitions are not exactly those (the create then reads afresh, answers the 400 and tries again).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { TenantScope } from '../../db/client';
import { columnOf, findStoreByName } from './stores';

/** The definitions a create validated with, as its condition binds them: how many, and `[name, type, required]` rows as JSON. */
export interface CustomDefinitionListing {
  readonly count: number | string;
  readonly json: string;
}

/** The reference kind that holds the definitions (its key is `<entity>.<name>`). */
const DEFINITIONS = 'customAttributes';

/**
 * True in SQL when the stored definitions of the entity are exactly the `listed` ones (same names, types and required
 * flags, no more, no fewer; null: none): compared row by row through json_each, so the order of rows does not matter.
 * The scope, entity and listing may be placeholders (a compiled insert).
 */
export function buildDefinitionsCondition(scope: TenantScope, entity: string, listed: CustomDefinitionListing | null): SQL {
  const store = findStoreByName(DEFINITIONS);
  if (!store) throw new Error('The custom attribute definitions have no table bound.');
  const t = store.table;
  const column = (name: string) => columnOf(store, name);
  const ofEntity = and(eq(column('tenantKey'), scope.tenantKey), eq(column('orgKey'), scope.orgKey), sql`${column('entity')} = ${entity}`);
  // The usual case, no definitions: a look at the tenant/org's rows of the key index.
  if (listed === null) return sql`NOT EXISTS (SELECT 1 FROM ${t} WHERE ${ofEntity})`;
  return sql`((SELECT count(*) FROM ${t} WHERE ${ofEntity}) = ${listed.count} AND NOT EXISTS (SELECT 1 FROM json_each(${listed.json}) AS listed WHERE NOT EXISTS (SELECT 1 FROM ${t} WHERE ${ofEntity} AND ${column('name')} = listed.value ->> 0 AND ${column('type')} = listed.value ->> 1 AND ${column('required')} IS listed.value ->> 2)))`;
}
