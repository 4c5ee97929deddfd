/**
 * The operator API (`/admin`, scope `operator`, not bound to `orgs`): where each tenant/org is placed, how many rows
 * it has, and moving it to another tenant database online. Tenant data itself is never answered here.
 */
import * as v from 'valibot';
import type { OperatorContext } from '../http/context';
import { readJsonBody } from '../http/body';
import { recordNotFound, validationError } from '../errors/api-error';
import type { FieldError } from '../errors/api-error';
import { jsonResponse } from '../http/responses';
import { DatabasesAnswer, PlacementAnswer, PlacementPageAnswer } from './answers';
import { backupRoutes } from './backup-routes';
import { drainRoutes } from './drain-routes';
import type { OperatorRoute } from '../http/route';
import { issueMessage, message } from '../messages/catalogue';
import { parseStrictBody } from '../validation/strict-body';

const DEFAULT_TOP = 100;
const MAX_TOP = 1000;
const PLACEMENT_PATH = '/admin/placements/:tenantKey/:orgKey';

function readWholeNumber(
  ctx: OperatorContext,
  name: string,
  fallback: number,
  range: { min: number; max: number },
  errors: FieldError[],
): number {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (Number.isNaN(value) || value < range.min || value > range.max)
    errors.push({ path: name, message: message('integerRange', { field: name, ...range }) });
  return value;
}

/** `$top` (1..1000, default 100), `$skip` and an optional `database` filter. */
function readPageQuery(ctx: OperatorContext): { top: number; skip: number; database?: string } {
  const errors: FieldError[] = [];
  const top = readWholeNumber(ctx, '$top', DEFAULT_TOP, { min: 1, max: MAX_TOP }, errors);
  const skip = readWholeNumber(ctx, '$skip', 0, { min: 0, max: 1_000_000_000 }, errors);
  const database = ctx.url.searchParams.get('database') ?? undefined;
  const databases = ctx.platform.placements.databases;
  if (database !== undefined && !databases.includes(database)) {
    errors.push({ path: 'database', message: message('notTenantDatabase', { field: 'database', choices: databases.join(', ') }) });
  }
  for (const name of ctx.url.searchParams.keys()) {
    if (!['$top', '$skip', 'database'].includes(name))
      errors.push({ path: name, message: message('unknownQueryParameter', { field: name }) });
  }
  if (errors.length > 0) throw validationError(errors);
  return { top, skip, ...(database === undefined ? {} : { database }) };
}

function readScope(ctx: OperatorContext) {
  return { tenantKey: ctx.params.tenantKey ?? '', orgKey: ctx.params.orgKey ?? '' };
}

const MoveBody = v.strictObject({
  database: v.pipe(
    v.string(issueMessage('mustBeString', { field: 'database' })),
    v.nonEmpty(issueMessage('required', { field: 'database' })),
  ),
});

export const operatorRoutes: readonly OperatorRoute[] = [
  {
    method: 'GET',
    path: '/admin/databases',
    summary: 'The tenant databases and how many tenant/orgs each holds',
    handle: async (ctx) => jsonResponse(DatabasesAnswer, { items: await ctx.platform.placements.listDatabases() }),
  },
  {
    method: 'GET',
    path: '/admin/placements',
    summary: 'Placements of every tenant/org, in tenantKey/orgKey order (paged: $top, $skip; filter: database)',
    handle: async (ctx) => {
      const query = readPageQuery(ctx);
      const page = await ctx.platform.placements.list(query);
      const next = new URL(ctx.url);
      next.searchParams.set('$top', String(query.top));
      next.searchParams.set('$skip', String(query.skip + query.top));
      return jsonResponse(PlacementPageAnswer, { items: page.items, ...(page.more ? { nextPageLink: next.toString() } : {}) });
    },
  },
  {
    method: 'GET',
    path: PLACEMENT_PATH,
    summary: 'The placement of one tenant/org (404 when it has never been written to)',
    handle: async (ctx) => {
      const scope = readScope(ctx);
      const placement = await ctx.platform.placements.find(scope);
      if (!placement) throw recordNotFound(`Tenant/org ${scope.tenantKey}/${scope.orgKey}`, true);
      return jsonResponse(PlacementAnswer, placement);
    },
  },
  {
    method: 'POST',
    path: `${PLACEMENT_PATH}/move`,
    summary: 'Moves the tenant/org to another tenant database; answers its new placement when the move is done',
    handle: async (ctx) => {
      const result = parseStrictBody(MoveBody, await readJsonBody(ctx.request));
      if (!result.success) throw validationError(result.errors);
      return jsonResponse(PlacementAnswer, await ctx.platform.placements.move(readScope(ctx), result.output.database));
    },
  },
  ...backupRoutes,
  ...drainRoutes,
];
