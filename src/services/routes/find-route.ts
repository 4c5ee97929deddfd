/** Finding a route by company and routeKey, and picking the route of a membership operation. */
import { and, eq } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import { ApiError, recordNotFound } from '../../errors/api-error';
import { routes } from './table';
import type { RouteRow } from './table';
import type { TenantReader } from '../../tenant/session';
import { message } from '../../messages/catalogue';

/** What the routes service's own operations read of a route. */
export type RouteSummary = Pick<
  RouteRow,
  'id' | 'company' | 'routeKey' | 'description' | 'brand' | 'brandModel' | 'responsible' | 'customAttributes' | 'version'
>;

export const ROUTE_SUMMARY = {
  id: routes.id,
  company: routes.company,
  routeKey: routes.routeKey,
  description: routes.description,
  brand: routes.brand,
  brandModel: routes.brandModel,
  responsible: routes.responsible,
  customAttributes: routes.customAttributes,
  version: routes.version,
};

/** The route with this company and routeKey, if any. */
export async function findRouteByKey(tenant: TenantReader, company: string, routeKey: string): Promise<RouteSummary | undefined> {
  const rows = await tenant.read(
    sqlBuilder
      .select(ROUTE_SUMMARY)
      .from(routes)
      .where(and(scopeCondition(routes, tenant.scope), eq(routes.company, company), eq(routes.routeKey, routeKey)))
      .limit(1),
  );
  return rows[0];
}

/**
 * The route of a membership operation among the routes with its `routeKey` (`rows`; with `companyKey`, of that company
 * only). None: 400 RecordNotFound (these operations document only 400); more than one (no `companyKey` sent): 400
 * AmbiguousKey naming the companies.
 */
export function pickMembershipRoute(rows: readonly RouteSummary[], routeKey: string, companyKey: string | null): RouteSummary {
  const [first, second] = rows;
  if (!first) {
    if (companyKey !== null) throw recordNotFound(`Route '${routeKey}' of company '${companyKey}'`, false, ['companyKey', 'routeKey']);
    throw recordNotFound(`Route '${routeKey}'`, false, 'routeKey');
  }
  if (second) {
    const companies = rows
      .map((row) => row.company)
      .sort()
      .join(', ');
    throw new ApiError('AmbiguousKey', `Route '${routeKey}' exists in more than one company (${companies}); add ?companyKey=.`, {
      errors: [{ path: 'companyKey', message: message('routeKeyAmbiguous', { routeKey, companies }) }],
    });
  }
  return first;
}
