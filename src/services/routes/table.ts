/** The routes table (derived from the description) and the route's member and tool tables. */
import type { MemberList } from '../../model/resource';
import { defineMemberTable } from '../../model/table';
import { defineEntityStore } from '../../resources/entities/store';
import { defineEntityTable } from '../../resources/entities/table';
import type { EntityRow } from '../../resources/entities/table';
import { routeSpec } from './entity';

export const routes = defineEntityTable(routeSpec);

export type RouteRow = EntityRow<typeof routeSpec>;

export const routeStore = defineEntityStore(routeSpec, routes);

const [locationTable, equipmentItemTable, toolTable] = routeSpec.members.lists;

/** One table per member list of the description (routeSpec.members): the route's id, the scope, the member's key. */
const defineRouteMembers = (list: MemberList) => defineMemberTable(routes, routeSpec.members.ownerColumn, list);

export const routeLocations = defineRouteMembers(locationTable);
export const routeEquipmentItems = defineRouteMembers(equipmentItemTable);
export const routeTools = defineRouteMembers(toolTable);

export type MemberTable = typeof routeLocations;
