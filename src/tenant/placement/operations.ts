/**
 * What the operator API (`/admin`) asks of the platform: placements with their row counts, and moves. Shared by
 * the Worker and the Deno platform; the move itself runs in the tenant/org's coordinator (`MoveCoordinator`).
 */
import type { TenantScope } from '../../db/client';
import { ApiError, recordNotFound } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { DatabaseSet } from '../d1/databases';
import { rememberPlacement } from './cache';
import { countRows } from './copy';
import { findPlacement, listPlacements, listTenantOrgs, readDatabaseLoads, setDatabaseClosed } from './directory';
import type { Placement } from './directory';
import type { MoveOutcome } from './mover';
import type { TenantTable } from './tenant-tables';

/** The tenant/org's coordinator as far as moves go (the Durable Object on Cloudflare). */
export interface MoveCoordinator {
  move(scope: TenantScope, target: string): Promise<MoveOutcome>;
  /** Resolves true when no move of the tenant/org is copying any more, false after `timeoutMs`. */
  awaitMove(scope: TenantScope, timeoutMs: number): Promise<boolean>;
}

/** A placement as the operator API answers it. */
interface PlacementView extends TenantScope {
  readonly database: string;
  /** The tenant/org's rows in its database, every tenant table together. */
  readonly rows: number;
  readonly placedOn: string;
  readonly movedOn: string | null;
  /** Moves so far + 1. */
  readonly epoch: number;
  /** The move under way, if any. */
  readonly move: { readonly database: string; readonly startedOn: string } | null;
}

interface DatabaseView {
  readonly database: string;
  readonly placements: number;
  /** Since when the database takes no new tenant/orgs (a drain closed it); null when it is open. */
  readonly closedOn: string | null;
}

export interface PlacementOperations {
  /** Binding names of the tenant databases. */
  readonly databases: readonly string[];
  find(scope: TenantScope): Promise<PlacementView | null>;
  list(options: { top: number; skip: number; database?: string }): Promise<{ items: PlacementView[]; more: boolean }>;
  /** The org keys of the tenant's placed tenant/orgs, at most `limit` (no rows counted). */
  listOrgs(tenantKey: string, limit: number): Promise<string[]>;
  listDatabases(): Promise<DatabaseView[]>;
  /** Closes a tenant database to new placements (`now`), or opens it again (null). */
  closeDatabase(database: string, now: Date | null): Promise<void>;
  /** Moves the tenant/org and answers its new placement once the old copy is deleted (ApiError 400/404/409/503). */
  move(scope: TenantScope, database: string): Promise<PlacementView>;
}

function toView(placement: Placement, rows: number): PlacementView {
  return {
    tenantKey: placement.tenantKey,
    orgKey: placement.orgKey,
    database: placement.database,
    rows,
    placedOn: placement.placedOn,
    movedOn: placement.movedOn,
    epoch: placement.epoch,
    move: placement.moveTarget && placement.moveStartedOn ? { database: placement.moveTarget, startedOn: placement.moveStartedOn } : null,
  };
}

const formatScopeKey = (scope: TenantScope) => JSON.stringify([scope.tenantKey, scope.orgKey]);

/** Rows of several tenant/orgs of one database: one batch, a GROUP BY per tenant table. */
async function countRowsOf(db: D1Database, tables: readonly TenantTable[], scopes: readonly TenantScope[]): Promise<Map<string, number>> {
  const keys = JSON.stringify(scopes.map((scope) => [scope.tenantKey, scope.orgKey]));
  const results = await db.batch<{ t: string; o: string; n: number }>(
    tables.map((table) =>
      db
        .prepare(
          `SELECT tenant_key AS t, org_key AS o, count(*) AS n FROM "${table.name}" WHERE (tenant_key, org_key) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)) GROUP BY tenant_key, org_key`,
        )
        .bind(keys),
    ),
  );
  const totals = new Map<string, number>();
  for (const result of results)
    for (const row of result.results)
      totals.set(
        formatScopeKey({ tenantKey: row.t, orgKey: row.o }),
        (totals.get(formatScopeKey({ tenantKey: row.t, orgKey: row.o })) ?? 0) + row.n,
      );
  return totals;
}

/** The tenant database bound as `name`, which the directory names. */
function bindTenantDatabase(databases: DatabaseSet, name: string): D1Database {
  const db = databases.tenants.get(name);
  if (!db) throw new Error(`${name} is in the directory but not bound: add its [[d1_databases]] block back.`);
  return db;
}

async function findPlacementView(
  databases: DatabaseSet,
  tables: readonly TenantTable[],
  scope: TenantScope,
): Promise<PlacementView | null> {
  const placement = await findPlacement(databases.directory, scope);
  if (!placement) return null;
  const counts = await countRows(bindTenantDatabase(databases, placement.database), tables, scope);
  return toView(
    placement,
    [...counts.values()].reduce((sum, n) => sum + n, 0),
  );
}

/** A page of placements, their rows counted with one batch per database. */
async function listPlacementViews(
  databases: DatabaseSet,
  tables: readonly TenantTable[],
  options: { top: number; skip: number; database?: string },
): Promise<{ items: PlacementView[]; more: boolean }> {
  const page = await listPlacements(databases.directory, options);
  const byDatabase = new Map<string, Placement[]>();
  for (const placement of page.items) byDatabase.set(placement.database, [...(byDatabase.get(placement.database) ?? []), placement]);
  const counts = new Map<string, number>();
  for (const [name, placements] of byDatabase)
    for (const [key, n] of await countRowsOf(bindTenantDatabase(databases, name), tables, placements)) counts.set(key, n);
  return { items: page.items.map((placement) => toView(placement, counts.get(formatScopeKey(placement)) ?? 0)), more: page.more };
}

/** Checks the target database (400) and the tenant/org (404), then has its coordinator move it (409, 503). */
async function requestMove(databases: DatabaseSet, moves: MoveCoordinator, scope: TenantScope, database: string): Promise<Placement> {
  if (!databases.tenants.has(database)) {
    throw new ApiError('ValidationFailed', `${database} is not a tenant database.`, {
      errors: [{ path: 'database', message: message('notTenantDatabase', { field: 'database', choices: databases.names.join(', ') }) }],
    });
  }
  if (!(await findPlacement(databases.directory, scope))) throw recordNotFound(`Tenant/org ${scope.tenantKey}/${scope.orgKey}`, true);
  let outcome: MoveOutcome;
  try {
    outcome = await moves.move(scope, database);
  } catch (error) {
    // The coordinator was reset while the caller waited: its alarms carry the move on.
    const running = await findPlacement(databases.directory, scope);
    if (!running?.moveTarget) throw error;
    throw new ApiError('ServiceUnavailable', `The move to ${running.moveTarget} continues; follow it with GET of this placement.`, {
      headers: { 'retry-after': '30' },
    });
  }
  if (outcome.outcome === 'conflict') {
    throw new ApiError('Conflict', `${scope.tenantKey}/${scope.orgKey} is already moving to ${outcome.target}; wait for that move to end.`);
  }
  if (outcome.outcome === 'failed') throw new ApiError('ServiceUnavailable', outcome.error, { headers: { 'retry-after': '30' } });
  return outcome.placement;
}

/** The operator's view of `databases`, whose tenant/orgs hold rows in `tables` (src/tenant-tables.ts). */
export function buildPlacementOperations(
  databases: DatabaseSet,
  tables: readonly TenantTable[],
  moves: MoveCoordinator,
): PlacementOperations {
  return {
    databases: databases.names,
    find: (scope) => findPlacementView(databases, tables, scope),
    list: (options) => listPlacementViews(databases, tables, options),
    listOrgs: (tenantKey, limit) => listTenantOrgs(databases.directory, tenantKey, limit),
    async listDatabases() {
      const loads = await readDatabaseLoads(databases.directory);
      return databases.names.map((database) => ({
        database,
        placements: loads.get(database)?.placements ?? 0,
        closedOn: loads.get(database)?.closedOn ?? null,
      }));
    },
    closeDatabase: (database, now) => setDatabaseClosed(databases.directory, database, now?.toISOString() ?? null),
    async move(scope, database) {
      const placement = await requestMove(databases, moves, scope, database);
      rememberPlacement(scope, placement.database);
      const view = await findPlacementView(databases, tables, scope);
      if (!view) throw new Error(`${scope.tenantKey}/${scope.orgKey} lost its placement.`);
      return view;
    },
  };
}
