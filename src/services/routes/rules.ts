/** The routes service's own rules around the generic entity operations: tools on create, attribute checks. */
import { and, count, eq } from 'drizzle-orm';
import type { CreateOptions } from '../../resources/entities/create';
import type { ApiContext } from '../../http/context';
import { validationError } from '../../errors/api-error';
import { checkBrandModel } from './brand-model';
import { findRouteByKey } from './find-route';
import type { RouteSummary } from './find-route';
import { buildMemberInserts } from './member-writes';
import { findThroughGroup } from '../../resources/entities/group-reads';
import { applyGroupToMembers } from './group-members';
import { equipmentMembers, listRouteMembers, locationMembers, toolMembers } from './members';
import { routeStore } from './table';
import type { MemberKind } from './members';
import { parseToolKeys } from './tools';
import { message } from '../../messages/catalogue';

/** Create: `tools` is checked with the other fields, its keys must exist, its rows go in the insert's batch. */
export const routeCreateOptions: CreateOptions = {
  extraProperties: ['tools'],
  validateExtra: (extra) => parseToolKeys(extra.tools).errors,
  prepare: async (_ctx, _values, extra) => {
    const tools = parseToolKeys(extra.tools);
    return { uses: tools.keys.map((key) => ({ kind: 'tools', key, path: tools.paths.get(key) ?? 'tools' })) };
  },
  statements: (ctx, id, _values, extra) => buildMemberInserts(ctx.db, ctx.scope, toolMembers, id, parseToolKeys(extra.tools).keys),
  validateCreate: (ctx, values) => checkBrandModel(ctx.db, ctx.scope, values.brand, values.brandModel, 'brandModel', ctx.group?.overlay),
  // The trigger routes_brand_model_insert (rule:route_brand_model) holds the same rule in the insert's batch.
  createRuleInDatabase: true,
};

/**
 * The route an attribute PUT addresses (in an atomic group, as the group leaves it); undefined lets the update answer
 * RecordNotFound.
 */
async function findAddressedRoute(ctx: ApiContext): Promise<RouteSummary | undefined> {
  const companyKey = ctx.params.companyKey ?? '';
  const routeKey = ctx.params.routeKey ?? '';
  if (!ctx.group) return findRouteByKey(ctx.db, ctx.scope, companyKey, routeKey);
  const lookup = { by: 'key', values: [companyKey, routeKey] } as const;
  const record = await findThroughGroup(ctx.db, routeStore, ctx.scope, ctx.group.overlay, lookup);
  // The route's record holds every field of its summary.
  return record as RouteSummary | undefined;
}

async function countMembers(ctx: ApiContext, routeId: string): Promise<{ locations: number; equipmentItems: number }> {
  const { db, scope } = ctx;
  if (ctx.group) {
    const members = await listRouteMembers(db, scope, [routeId]);
    await applyGroupToMembers(ctx, members);
    const own = members.get(routeId);
    return { locations: own?.locations.length ?? 0, equipmentItems: own?.equipmentItems.length ?? 0 };
  }
  const query = (kind: MemberKind) =>
    db
      .select({ n: count() })
      .from(kind.table)
      .where(and(eq(kind.table.tenantKey, scope.tenantKey), eq(kind.table.orgKey, scope.orgKey), eq(kind.table.ownerId, routeId)));
  const [locations, equipmentItems] = await db.batch([query(locationMembers), query(equipmentMembers)]);
  return { locations: locations[0]?.n ?? 0, equipmentItems: equipmentItems[0]?.n ?? 0 };
}

/** Attribute checks, by attribute name. */
export const routeAttributeChecks: Readonly<Record<string, (ctx: ApiContext, value: unknown) => Promise<void>>> = {
  /** A route's company cannot change while it has members (they belong to the old company). */
  company: async (ctx, value) => {
    const route = await findAddressedRoute(ctx);
    if (!route || route.company === value) return;
    const members = await countMembers(ctx, route.id);
    if (members.locations + members.equipmentItems > 0) {
      const { locations, equipmentItems } = members;
      throw validationError([
        { path: 'company', message: message('companyHasMembers', { locations, equipmentItems, company: route.company }) },
      ]);
    }
  },
  brand: async (ctx, value) => {
    const route = await findAddressedRoute(ctx);
    if (!route) return;
    const errors = await checkBrandModel(ctx.db, ctx.scope, value, route.brandModel, 'brand', ctx.group?.overlay);
    if (errors.length > 0) throw validationError(errors);
  },
  brandModel: async (ctx, value) => {
    const route = await findAddressedRoute(ctx);
    if (!route) return;
    const errors = await checkBrandModel(ctx.db, ctx.scope, route.brand, value, 'brandModel', ctx.group?.overlay);
    if (errors.length > 0) throw validationError(errors);
  },
};
