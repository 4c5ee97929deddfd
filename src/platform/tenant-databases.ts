/**
 * The tenant-database half of a platform, shared by the Worker and Deno: drizzle over the guarded tenant D1 object,
 * the read-only handles of cross-tenant jobs, and the operator's placement operations.
 */
import type { TenantScope } from '../db/client';
import { openDrizzle } from '../db/client';
import type { Database } from '../db/client';
import type { DatabaseSet } from './d1/databases';
import type { MoveCoordinator } from './placement/operations';
import { readOnlyD1 } from './placement/read-only-d1';
import { TenantD1 } from './placement/tenant-d1';
import type { TenantDatabaseRequest } from './types';

/** How long a write refused by a move waits for it (then 503 with Retry-After). */
export const MOVE_WAIT_MS = 20_000;

export interface TenantDatabases {
  readonly databases: DatabaseSet;
  readonly moves: MoveCoordinator;
  now(): Date;
}

export function openTenantDatabase(parts: TenantDatabases, request: TenantDatabaseRequest): Database {
  const scope: TenantScope = { tenantKey: request.tenantKey, orgKey: request.orgKey };
  return openDrizzle(
    new TenantD1({
      scope,
      databases: parts.databases,
      ...(request.meter ? { meter: request.meter } : {}),
      ...(request.session ? { session: request.session } : {}),
      waitForMove: () => parts.moves.awaitMove(scope, MOVE_WAIT_MS),
      now: parts.now,
    }),
  );
}

export function openEveryTenantDatabase(databases: DatabaseSet): Database[] {
  return databases.names.map((name) => {
    const binding = databases.tenants.get(name);
    if (!binding) throw new Error(`${name} is not bound.`);
    return openDrizzle(readOnlyD1(binding, name));
  });
}
