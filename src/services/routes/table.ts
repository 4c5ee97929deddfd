/** The routes table (derived from the description) and the route's member and tool tables. */
import { index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { MemberTableSpec } from '../../resources/entities/spec';
import { defineEntityStore } from '../../resources/entities/store';
import { defineEntityTable } from '../../resources/entities/table';
import type { EntityRow } from '../../resources/entities/table';
import { routeSpec } from './entity';

export const routes = defineEntityTable(routeSpec);

export type RouteRow = EntityRow<typeof routeSpec>;

export const routeStore = defineEntityStore(routeSpec, routes);

/**
 * One table per member kind of the description (`routeSpec.members`): the route's id, the scope and the member's
 * reference key (reference keys never change, an upsert keeps them). Deleting the route deletes its rows (ON DELETE
 * CASCADE).
 */
function defineMemberTable(member: MemberTableSpec) {
  const name = member.table;
  return sqliteTable(
    name,
    {
      routeId: text(routeSpec.members.ownerColumn)
        .notNull()
        .references(() => routes.id, { onDelete: 'cascade' }),
      tenantKey: text('tenant_key').notNull(),
      orgKey: text('org_key').notNull(),
      memberKey: text(member.column).notNull(),
    },
    (table) => [
      primaryKey({ name: `${name}_pk`, columns: [table.routeId, table.memberKey] }),
      // The in-use check of a reference delete looks members up by key.
      index(`${name}_${member.column}_idx`).on(table.tenantKey, table.orgKey, table.memberKey),
    ],
  );
}

const [locationTable, equipmentItemTable, toolTable] = routeSpec.members.tables;

export const routeLocations = defineMemberTable(locationTable);
export const routeEquipmentItems = defineMemberTable(equipmentItemTable);
export const routeTools = defineMemberTable(toolTable);

export type MemberTable = typeof routeLocations;
