/**
 * Direct access to a tenant/org's rows for tests that check or prepare storage: the D1 binding that holds it,
 * found in the directory (and placed there first, as its first write through the API would, when it is new).
 * Works in both runs: in the Deno run `env` holds the Deno server's databases (test/deno/remote-bindings.ts).
 */
import { env } from 'cloudflare:test';
import type { TenantScope } from '../../src/db/client';
import { readDatabaseSet } from '../../src/tenant/d1/databases';
import type { DatabaseSet } from '../../src/tenant/d1/databases';
import type { GroupMember } from '../../src/tenant/atomic-group';
import type { RoundTripMeter } from '../../src/tenant/d1/meter';
import { findPlacement, placeTenant } from '../../src/tenant/placement/directory';
import { TenantExecutor } from '../../src/tenant/placement/executor';
import { openTenantSession } from '../../src/tenant/session';
import type { TenantSession } from '../../src/tenant/session';
import type { AuditStamp } from '../../src/tenant/unit-of-work';

export function readTestDatabases(): DatabaseSet {
  return readDatabaseSet(env);
}

/** The binding name of the database that holds the tenant/org, or null when it was never written to. */
export async function findTenantDatabase(scope: TenantScope): Promise<string | null> {
  return (await findPlacement(readTestDatabases().directory, scope))?.database ?? null;
}

/** The D1 database that holds the tenant/org (placing it when new). */
export async function openTenantD1(scope: TenantScope): Promise<D1Database> {
  const databases = readTestDatabases();
  const placement = (await findPlacement(databases.directory, scope)) ?? (await placeTenant(databases, scope, new Date()));
  const binding = databases.tenants.get(placement.database);
  if (!binding) throw new Error(`${placement.database} is not bound.`);
  return binding;
}

/** The D1 database of a test client's tenant/org. */
export function openClientD1(client: { readonly tenant: string; readonly org: string }): Promise<D1Database> {
  return openTenantD1({ tenantKey: client.tenant, orgKey: client.org });
}

/** What a test session is opened with: its audit stamp, and optionally a meter of its round trips and an atomic group. */
interface TestSessionOptions {
  readonly stamp: AuditStamp;
  readonly meter?: RoundTripMeter;
  readonly group?: GroupMember;
}

/**
 * A session of a test client's tenant/org, run by the tenant executor as a handler's is (placement, residency guard,
 * metering), without a read session, write watchers or moves.
 */
export function openTestSession(client: { readonly tenant: string; readonly org: string }, options: TestSessionOptions): TenantSession {
  const executor = new TenantExecutor({
    scope: { tenantKey: client.tenant, orgKey: client.org },
    databases: readTestDatabases(),
    ...(options.meter ? { meter: options.meter } : {}),
    watchers: () => [],
    waitForMove: async () => true,
    now: () => new Date(),
  });
  return openTenantSession({ executor, stamp: options.stamp, group: options.group });
}

/**
 * A session whose tenant/org must never be reached (a plan that reads nothing, a command that touches no table): any
 * statement it is asked to run fails.
 */
export function openUnreachableSession(scope: TenantScope, stamp: AuditStamp): TenantSession {
  const refuse = () => Promise.reject(new Error(`${scope.tenantKey}/${scope.orgKey} must not be reached here.`));
  return openTenantSession({ executor: { scope, run: refuse, bookmark: () => null }, stamp });
}
