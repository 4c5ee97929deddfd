/**
 * Direct access to a tenant/org's rows for tests that check or prepare storage: the D1 binding that holds it,
 * found in the directory (and placed there first, as its first write through the API would, when it is new).
 * Works in both runs: in the Deno run `env` holds the Deno server's databases (test/deno/remote-bindings.ts).
 */
import { env } from 'cloudflare:test';
import type { TenantScope } from '../../src/db/client';
import { readDatabaseSet } from '../../src/tenant/d1/databases';
import type { DatabaseSet } from '../../src/tenant/d1/databases';
import { findPlacement, placeTenant } from '../../src/tenant/placement/directory';

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
