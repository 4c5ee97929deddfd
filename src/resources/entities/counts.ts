/**
 * `entity_counts` (migration 0008): the row count of each entity table per tenant/org, kept by triggers in the same
 * statement as every insert and delete. Only read here; it is not part of the drizzle schema (src/schema.ts), so a
 * tenant/org's move never copies it: the triggers count the rows the move inserts and deletes.
 */
import { and, eq } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';

const entityCounts = sqliteTable('entity_counts', {
  tenantKey: text('tenant_key').notNull(),
  orgKey: text('org_key').notNull(),
  entity: text('entity').notNull(),
  rows: integer('rows').notNull(),
});

/** The query of the tenant/org's row count of `table` (no row: none was ever inserted, so 0). */
export function buildCountQuery(table: string, scope: TenantScope) {
  return sqlBuilder
    .select({ count: entityCounts.rows })
    .from(entityCounts)
    .where(and(scopeCondition(entityCounts, scope), eq(entityCounts.entity, table)));
}
