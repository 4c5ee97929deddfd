/** Finding a route by `routeKey` alone (membership operations) or by company and routeKey. */
import { and, eq } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { ApiError, recordNotFound } from '../../errors/api-error';
import { routes } from './table';
import type { RouteRow } from './table';
import { message } from '../../messages/catalogue';

/** What the routes service's own operations read of a route. */
export type RouteSummary = Pick<
  RouteRow,
  'id' | 'company' | 'routeKey' | 'description' | 'brand' | 'brandModel' | 'responsible' | 'customAttributes' | 'version'
>;

const summary = {
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
export async function findRouteByKey(
  db: Database,
  scope: TenantScope,
  company: string,
  routeKey: string,
): Promise<RouteSummary | undefined> {
  const rows = await db
    .select(summary)
    .from(routes)
    .where(and(scopeCondition(routes, scope), eq(routes.company, company), eq(routes.routeKey, routeKey)))
    .limit(1);
  return rows[0];
}

/**
 * The route of a membership operation: `routeKey` from the path, `companyKey` from the query string. Without
 * `companyKey`, a routeKey that two companies share is 400 AmbiguousKey. A missing route is 400 RecordNotFound
 * (these operations document only 400).
 */
export async function findRouteForMembership(
  db: Database,
  scope: TenantScope,
  routeKey: string,
  companyKey: string | null,
): Promise<RouteSummary> {
  if (routeKey === '') throw recordNotFound(`Route ''`, false, 'routeKey');
  if (companyKey !== null) {
    const route = await findRouteByKey(db, scope, companyKey, routeKey);
    if (!route) throw recordNotFound(`Route '${routeKey}' of company '${companyKey}'`, false, ['companyKey', 'routeKey']);
    return route;
  }
  const rows = await db
    .select(summary)
    .from(routes)
    .where(and(scopeCondition(routes, scope), eq(routes.routeKey, routeKey)))
    .orderBy(routes.company)
    .limit(20);
  const [first, second] = rows;
  if (!first) throw recordNotFound(`Route '${routeKey}'`, false, 'routeKey');
  if (second) {
    const companies = rows.map((row) => row.company).join(', ');
    throw new ApiError('AmbiguousKey', `Route '${routeKey}' exists in more than one company (${companies}); add ?companyKey=.`, {
      errors: [{ path: 'companyKey', message: message('routeKeyAmbiguous', { routeKey, companies }) }],
    });
  }
  return first;
}
