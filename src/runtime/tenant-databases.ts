/**
 * The tenant-database half of a platform, shared by the Worker and Deno: the tenant/org's executor (placement,
 * residency guard, read session, metering, watchers); and what coordinator commands see of a platform.
 */
import type { TenantScope } from '../db/client';
import type { DatabaseSet } from '../tenant/d1/databases';
import { TenantExecutor } from '../tenant/placement/executor';
import type { MoveCoordinator } from '../tenant/placement/operations';
import type { TenantTable } from '../tenant/placement/tenant-tables';
import type { Platform, TenantDatabaseRequest, WatchContext, WriteWatcher, WriteWatcherFactory } from './platform';

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

export function openTenantExecutor(parts: TenantDatabases, request: TenantDatabaseRequest): TenantExecutor {
  const scope: TenantScope = { tenantKey: request.tenantKey, orgKey: request.orgKey };
  return new TenantExecutor({
    scope,
    databases: parts.databases,
    ...(request.meter ? { meter: request.meter } : {}),
    ...(request.session ? { session: request.session } : {}),
    ...(request.refuseWrites ? { refuseWrites: request.refuseWrites } : {}),
    waitForMove: () => parts.moves.awaitMove(scope, MOVE_WAIT_MS),
    watchers: () => parts.watch(scope),
    now: parts.now,
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
