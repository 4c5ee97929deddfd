/** Finding a route by `routeKey` alone (membership operations) or by company and routeKey. */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { ApiError, recordNotFound } from '../../http/errors';
import { routeColumns, routes } from './table';

export interface RouteRow {
  readonly id: string;
  readonly company: string;
  readonly routeKey: string;
  readonly description: string;
  readonly brand: string | null;
  readonly brandModel: string | null;
  readonly responsible: string | null;
  readonly customAttributes: string | null;
  readonly version: number;
}

const columns = {
  id: routeColumns.id,
  company: routeColumns.company,
  routeKey: routeColumns.routeKey,
  description: routeColumns.description,
  brand: routeColumns.brand,
  brandModel: routeColumns.brandModel,
  responsible: routeColumns.responsible,
  customAttributes: routeColumns.customAttributes,
  version: routeColumns.version,
};

function scoped(scope: TenantScope) {
  return [eq(routeColumns.tenantKey, scope.tenantKey), eq(routeColumns.orgKey, scope.orgKey)];
}

/** The route with this company and routeKey, if any. */
export async function readRouteByKey(db: Database, scope: TenantScope, company: string, routeKey: string): Promise<RouteRow | undefined> {
  const rows = await db
    .select(columns)
    .from(routes)
    .where(and(...scoped(scope), eq(routeColumns.company, company), eq(routeColumns.routeKey, routeKey)))
    .limit(1);
  return rows[0] as RouteRow | undefined;
}

/**
 * The route of a membership operation: `routeKey` from the path, `companyKey` from the query string. Without
 * `companyKey`, a routeKey that two companies share is 400 AmbiguousKey. A missing route is 400 RecordNotFound
 * (SPEC lists only 400 for these operations).
 */
export async function findRouteForMembership(
  db: Database,
  scope: TenantScope,
  routeKey: string,
  companyKey: string | null,
): Promise<RouteRow> {
  if (routeKey === '') throw recordNotFound(`Route ''`, false);
  if (companyKey !== null) {
    const route = await readRouteByKey(db, scope, companyKey, routeKey);
    if (!route) throw recordNotFound(`Route '${routeKey}' of company '${companyKey}'`, false);
    return route;
  }
  const rows = (await db
    .select(columns)
    .from(routes)
    .where(and(...scoped(scope), eq(routeColumns.routeKey, routeKey)))
    .orderBy(routeColumns.company)
    .limit(20)) as RouteRow[];
  const [first, second] = rows;
  if (!first) throw recordNotFound(`Route '${routeKey}'`, false);
  if (second) {
    throw new ApiError(
      'AmbiguousKey',
      `Route '${routeKey}' exists in more than one company (${rows.map((row) => row.company).join(', ')}); add ?companyKey=.`,
      {
        errors: [
          {
            path: 'companyKey',
            message: `required: routeKey '${routeKey}' exists in companies ${rows.map((row) => row.company).join(', ')}`,
          },
        ],
      },
    );
  }
  return first;
}
