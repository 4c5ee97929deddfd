/** The routes table (derived from the description) and the route's member and tool tables. */
import { index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { defineEntityStore } from '../../entities/store';
import { defineEntityTable } from '../../entities/table';
import type { EntityRow } from '../../entities/table';
import { routeSpec } from './entity';

export const routes = defineEntityTable(routeSpec);

export type RouteRow = EntityRow<typeof routeSpec>;

export const routeStore = defineEntityStore(routeSpec, routes);

/**
 * One table per member kind: the route's id, the scope and the member's reference key (reference keys never
 * change, an upsert keeps them). Deleting the route deletes its rows (ON DELETE CASCADE).
 */
function defineMemberTable(name: string, keyColumn: string) {
  return sqliteTable(
    name,
    {
      routeId: text('route_id')
        .notNull()
        .references(() => routes.id, { onDelete: 'cascade' }),
      tenantKey: text('tenant_key').notNull(),
      orgKey: text('org_key').notNull(),
      memberKey: text(keyColumn).notNull(),
    },
    (table) => [
      primaryKey({ name: `${name}_pk`, columns: [table.routeId, table.memberKey] }),
      // The in-use check of a reference delete looks members up by key.
      index(`${name}_${keyColumn}_idx`).on(table.tenantKey, table.orgKey, table.memberKey),
    ],
  );
}

export const routeLocations = defineMemberTable('route_locations', 'location');
export const routeEquipmentItems = defineMemberTable('route_equipment_items', 'equipment_item');
export const routeTools = defineMemberTable('route_tools', 'tool');

export type MemberTable = typeof routeLocations;
