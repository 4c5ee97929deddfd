/**
 * The tenant-database half of a platform, shared by the Worker and Deno: drizzle over the guarded tenant D1 object,
 * the read-only handles of cross-tenant jobs, and the operator's placement operations; and what coordinator commands
 * see of a platform.
 */
import type { TenantScope } from '../db/client';
import { openDrizzle } from '../db/client';
import type { Database } from '../db/client';
import type { DatabaseSet } from './d1/databases';
import type { MoveCoordinator } from './placement/operations';
import { readOnlyD1 } from './placement/read-only-d1';
import { TenantD1 } from './placement/tenant-d1';
import type { TenantTable } from './placement/tenant-tables';
import type { Platform, TenantDatabaseRequest, WatchContext, WriteWatcher, WriteWatcherFactory } from '../runtime/platform';

/** How long a write refused by a move waits for it (then 503 with Retry-After). */
const MOVE_WAIT_MS = 20_000;

/**
 * What a platform needs to know of the tenant schema and the services: every tenant/org table, parents first (what
 * moves copy and the operator API counts), and the services' write watchers.
 */
export interface TenantModel {
  readonly tables: readonly TenantTable[];
  readonly watchers: readonly WriteWatcherFactory[];
}

/** The watchers of one tenant/org's writes in one invocation. */
export function watchWrites(factories: readonly WriteWatcherFactory[], scope: TenantScope, context: WatchContext): WriteWatcher[] {
  return factories.flatMap((factory) => factory(scope, context) ?? []);
}

interface TenantDatabases {
  readonly databases: DatabaseSet;
  readonly moves: MoveCoordinator;
  now(): Date;
  /** The services' watchers of a tenant/org's writes (each read rides at the end of every write batch). */
  watch(scope: TenantScope): readonly WriteWatcher[];
}

export function openTenantDatabase(parts: TenantDatabases, request: TenantDatabaseRequest): Database {
  const scope: TenantScope = { tenantKey: request.tenantKey, orgKey: request.orgKey };
  const tenant = new TenantD1({
    scope,
    databases: parts.databases,
    ...(request.meter ? { meter: request.meter } : {}),
    ...(request.session ? { session: request.session } : {}),
    ...(request.refuseWrites ? { refuseWrites: request.refuseWrites } : {}),
    waitForMove: () => parts.moves.awaitMove(scope, MOVE_WAIT_MS),
    watchers: () => parts.watch(scope),
    now: parts.now,
  });
  return openDrizzle(tenant.open());
}

export function openEveryTenantDatabase(databases: DatabaseSet): Database[] {
  return databases.names.map((name) => {
    const binding = databases.tenants.get(name);
    if (!binding) throw new Error(`${name} is not bound.`);
    return openDrizzle(readOnlyD1(binding, name));
  });
}

/** What coordinator commands see: in the Durable Object and in Deno's coordinators alike, they cannot call a coordinator. */
export function denyCoordinator(platform: Platform): Platform {
  return {
    ...platform,
    coordinator: () => {
      throw new Error('A coordinator command cannot send commands to a coordinator.');
    },
  };
}
