/**
 * The directory database (binding `DIRECTORY`): which tenant database holds each tenant/org. drizzle-kit makes
 * `migrations/directory/` from this file (`npm run db:generate`); the counters of `database_loads` are kept by
 * triggers (a custom migration).
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** One row per tenant/org that has been written to: its database (a binding name) and its move history. */
export const tenantPlacements = sqliteTable(
  'tenant_placements',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    /** Binding name of the tenant database (`TENANT_DB_1`, ...). */
    database: text('database').notNull(),
    /** 1 at placement, +1 at every move. */
    epoch: integer('epoch').notNull().default(1),
    placedOn: text('placed_on').notNull(),
    movedOn: text('moved_on'),
    /** While a move runs: where to, and since when. */
    moveTarget: text('move_target'),
    moveStartedOn: text('move_started_on'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantKey, table.orgKey] }),
    index('tenant_placements_database_idx').on(table.database, table.tenantKey, table.orgKey),
  ],
);

/** How many tenant/orgs each database holds (maintained by triggers on `tenant_placements`): the placement rule reads it. */
export const databaseLoads = sqliteTable('database_loads', {
  database: text('database').primaryKey(),
  placements: integer('placements').notNull().default(0),
  /** Set by a drain: the placement rule puts no new tenant/org here (until `POST /admin/databases/{binding}/open`). */
  closedOn: text('closed_on'),
});
