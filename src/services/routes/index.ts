/** The routes service: an entity with members, tools and its own operations and rules. */
import { sql } from 'drizzle-orm';
import type { Decorate } from '../../resources/entities/handlers';
import { routesImportTemplate } from './import-template';
import { defineEntityService } from '../../resources/entities/service';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import type { ReferenceUser } from '../../resources/reference/usage';
import { describeMembership, notificationDoc, routeEntityDoc } from './docs';
import { routeSpec } from './entity';
import { handleMembershipChange } from './membership';
import { applyGroupToMembers, listGroupMemberUses } from './group-members';
import type { MembershipAction } from './membership';
import type { MembershipBy } from './membership-body';
import { equipmentMembers, listRouteMembers, locationMembers, MEMBER_KINDS } from './members';
import type { MemberKind } from './members';
import { handleNotificationParameters, loadNotificationParameters } from './notification';
import { guardRouteReferences } from './reference-guard';
import { checkRouteUpdate, routeAttributeChecks, routeCreateOptions } from './rules';
import { routes, routeStore } from './table';

const BASE = routeSpec.basePath;
const tags = ['Routes'];

/**
 * Adds `locations`, `equipmentItems` and `tools` (`{id, key, description}`, by key) to reads and lists (in an atomic
 * group, the locations and equipment items as the group leaves them).
 */
const decorateRoutes: Decorate = async (ctx, rows, resources) => {
  const ids = rows.map((row) => String(row.id));
  const members = await listRouteMembers(ctx.tenant, ids);
  // In an atomic group of `$batch`: the members as the group's writes leave them.
  await applyGroupToMembers(ctx, members);
  resources.forEach((resource, index) => {
    const own = members.get(ids[index] ?? '');
    resource.locations = own?.locations ?? [];
    resource.equipmentItems = own?.equipmentItems ?? [];
    resource.tools = own?.tools ?? [];
  });
};

const MEMBERSHIP_VERBS = [
  ['add', 'add', 'key'],
  ['addById', 'add', 'id'],
  ['remove', 'remove', 'key'],
  ['removeById', 'remove', 'id'],
] as const;

const MEMBERSHIP_OPERATIONS: readonly { segment: string; kind: MemberKind; action: MembershipAction; by: MembershipBy; verb: string }[] = (
  [
    ['locations', locationMembers],
    ['equipmentitems', equipmentMembers],
  ] as const
).flatMap(([segment, kind]) => MEMBERSHIP_VERBS.map(([verb, action, by]) => ({ segment, kind, action, by, verb })));

function membershipRoutes(): ApiRoute[] {
  return MEMBERSHIP_OPERATIONS.map(({ segment, kind, action, by, verb }) =>
    defineApiRoute({
      method: 'POST',
      path: `${BASE}/:routeKey/${segment}/${verb}`,
      scope: 'application',
      doc: {
        summary: `${action === 'add' ? 'Add' : 'Remove'} ${kind.title}s ${action === 'add' ? 'to' : 'from'} a route, by ${by === 'key' ? 'keys' : 'identifiers'}`,
        tags,
        operationId: `${verb}Route${kind.field === 'locations' ? 'Locations' : 'EquipmentItems'}`,
        ...describeMembership(by),
      },
      handle: (ctx) => handleMembershipChange(ctx, kind, action, by),
    }),
  );
}

const notificationRoute: ApiRoute = defineApiRoute({
  method: 'GET',
  path: `${BASE}/getMaintenanceNotificationTemplateParameters/:companyKey/:routeKey`,
  scope: 'application',
  doc: {
    summary: "The parameters of a route's maintenance notification email template, formatted for cultureKey",
    tags,
    operationId: 'getRouteMaintenanceNotificationTemplateParameters',
    ...notificationDoc,
  },
  handle: handleNotificationParameters,
});

/** The member and tool tables hold reference keys: a location, equipment item or tool in a route cannot be deleted. */
const memberReferenceUsers: readonly ReferenceUser[] = MEMBER_KINDS.map((kind) => ({
  kind: kind.reference.spec.name,
  name: `routes.${kind.field}`,
  table: kind.table,
  column: kind.table.memberKey,
  tenantKey: kind.table.tenantKey,
  orgKey: kind.table.orgKey,
  label: sql`(SELECT ${routes.company} || '/' || ${routes.routeKey} FROM ${routes} WHERE ${routes.id} = ${kind.table.ownerId})`,
  group: { id: kind.table.ownerId, uses: (overlay, key, stored) => listGroupMemberUses(overlay, kind, key, stored) },
}));

export const routesService = {
  name: 'routes',
  ...defineEntityService(routeStore, {
    routes: [notificationRoute, ...membershipRoutes()],
    create: routeCreateOptions,
    decorate: decorateRoutes,
    checkAttribute: routeAttributeChecks,
    checkUpdate: checkRouteUpdate,
    doc: routeEntityDoc,
  }),
  referenceUsers: memberReferenceUsers,
  /** Members and tools as columns of keys. */
  importTemplates: [routesImportTemplate],
  referenceGuards: [guardRouteReferences],
  /** A route's maintenance notification parameters for a culture (the email templates service renders with them). */
  notificationParameters: loadNotificationParameters,
};
