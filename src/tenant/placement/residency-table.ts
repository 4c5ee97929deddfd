/**
 * `tenant_residency`, in every tenant database: whether this database holds a tenant/org. It is the authority a
 * residency guard checks in the same D1 batch as every statement run for the tenant/org (see executor.ts).
 */
import { sql } from 'drizzle-orm';
import { check, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * `active`: the tenant/org lives here. `moving`: it is being copied away (reads are served, writes refused).
 * `moved`: it left (its rows are deleted or being deleted); kept as a tombstone. `incoming`: a copy is arriving
 * (neither read nor written until the move switches the directory).
 */
const RESIDENCY_STATES = ['active', 'moving', 'moved', 'incoming'] as const;
export type ResidencyState = (typeof RESIDENCY_STATES)[number];

export const tenantResidency = sqliteTable(
  'tenant_residency',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    state: text('state', { enum: RESIDENCY_STATES }).notNull(),
    changedOn: text('changed_on').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantKey, table.orgKey] }),
    check('tenant_residency_state_check', sql`${table.state} IN ('active', 'moving', 'moved', 'incoming')`),
  ],
);
