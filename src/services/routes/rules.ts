/** The routes service's own rules around the generic entity operations: tools on create, attribute checks. */
import { and, count, eq } from 'drizzle-orm';
import type { CreateOptions } from '../../resources/entities/create';
import type { ApiContext } from '../../http/context';
import { sqlBuilder } from '../../db/sql';
import { validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import type { CheckUpdate } from '../../resources/entities/update';
import { checkBrandModel } from './brand-model';
import { findRouteByKey } from './find-route';
import type { RouteSummary } from './find-route';
import { buildCreateMemberInserts, checkCreateMembers, CREATE_MEMBER_KINDS, validateCreateMembers } from './create-members';
import { buildMemberInserts } from './member-writes';
import { findThroughGroup } from '../../resources/entities/group-reads';
import { applyGroupToMembers } from './group-members';
import { equipmentMembers, listRouteMembers, locationMembers, toolMembers } from './members';
import { routeStore } from './table';
import type { MemberKind } from './members';
import { parseToolKeys } from './tools';
import { message } from '../../messages/catalogue';

/**
 * Create: `tools`, `locations` and `equipmentItems` are checked with the other fields, their keys must exist (locations
 * and equipment items of the route's company), their rows go in the insert's batch.
 */
export const routeCreateOptions: CreateOptions = {
  extraProperties: ['tools', ...CREATE_MEMBER_KINDS.map((kind) => kind.field)],
  validateExtra: (extra) => [...parseToolKeys(extra.tools).errors, ...validateCreateMembers(extra)],
  prepare: async (_ctx, _values, extra) => {
    const tools = parseToolKeys(extra.tools);
    return { uses: tools.keys.map((key) => ({ kind: 'tools', key, path: tools.paths.get(key) ?? 'tools' })) };
  },
  statements: (ctx, id, _values, extra) => [
    ...buildMemberInserts(ctx.tenant.scope, toolMembers, id, parseToolKeys(extra.tools).keys),
    ...buildCreateMemberInserts(ctx.tenant.scope, id, extra),
  ],
  validateCreate: async (ctx, values, extra) => [
    ...(await checkBrandModel(ctx.tenant, values.brand, values.brandModel, 'brandModel', ctx.tenant.group?.overlay)),
    ...(await checkCreateMembers(ctx.tenant, values.company, extra)),
  ],
  // The triggers routes_brand_model_insert (rule:route_brand_model), route_*_references_insert (rule:unknown_reference)
  // and route_*_company_insert (rule:route_member_company) hold the same rules in the insert's batch.
  createRuleInDatabase: true,
};

/**
 * The route an attribute PUT addresses (in an atomic group, as the group leaves it); undefined lets the update answer
 * RecordNotFound.
 */
async function findAddressedRoute(ctx: ApiContext): Promise<RouteSummary | undefined> {
  const companyKey = ctx.params.companyKey ?? '';
  const routeKey = ctx.params.routeKey ?? '';
  const { tenant } = ctx;
  if (!tenant.group) return findRouteByKey(tenant, companyKey, routeKey);
  const lookup = { by: 'key', values: [companyKey, routeKey] } as const;
  const record = await findThroughGroup(tenant, routeStore, tenant.group.overlay, lookup);
  // The route's record holds every field of its summary.
  return record as RouteSummary | undefined;
}

async function countMembers(ctx: ApiContext, routeId: string): Promise<{ locations: number; equipmentItems: number }> {
  const { tenant } = ctx;
  const { scope } = tenant;
  if (tenant.group) {
    const members = await listRouteMembers(tenant, [routeId]);
    await applyGroupToMembers(ctx, members);
    const own = members.get(routeId);
    return { locations: own?.locations.length ?? 0, equipmentItems: own?.equipmentItems.length ?? 0 };
  }
  const query = (kind: MemberKind) =>
    sqlBuilder
      .select({ n: count() })
      .from(kind.table)
      .where(and(eq(kind.table.tenantKey, scope.tenantKey), eq(kind.table.orgKey, scope.orgKey), eq(kind.table.ownerId, routeId)));
  const [locations, equipmentItems] = await tenant.readBatch([query(locationMembers), query(equipmentMembers)]);
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
    const errors = await checkBrandModel(ctx.tenant, value, route.brandModel, 'brand', ctx.tenant.group?.overlay);
    if (errors.length > 0) throw validationError(errors);
  },
  brandModel: async (ctx, value) => {
    const route = await findAddressedRoute(ctx);
    if (!route) return;
    const errors = await checkBrandModel(ctx.tenant, route.brand, value, 'brandModel', ctx.tenant.group?.overlay);
    if (errors.length > 0) throw validationError(errors);
  },
};

/**
 * The same rules on the route as a PATCH or PUT leaves it: its company does not change while it has members, and its
 * brand model is a model of its brand (both as the update sets them, else as stored).
 */
export const checkRouteUpdate: CheckUpdate = async (ctx, route, values) => {
  const errors: FieldError[] = [];
  const company = String(route.company);
  if ('company' in values && values.company !== company) {
    const { locations, equipmentItems } = await countMembers(ctx, route.id);
    if (locations + equipmentItems > 0)
      errors.push({ path: 'company', message: message('companyHasMembers', { locations, equipmentItems, company }) });
  }
  if ('brand' in values || 'brandModel' in values) {
    const brand = 'brand' in values ? values.brand : route.brand;
    const brandModel = 'brandModel' in values ? values.brandModel : route.brandModel;
    const path = 'brandModel' in values ? 'brandModel' : 'brand';
    errors.push(...(await checkBrandModel(ctx.tenant, brand, brandModel, path, ctx.tenant.group?.overlay)));
  }
  return errors;
};
