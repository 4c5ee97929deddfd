/** D1 storage of API clients: every statement is scoped by tenant and org; writes go through runWrites. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runWrites } from '../../db/writes';
import type { AuditStamp } from '../../entities/store';
import { apiClients } from './table';
import type { ApiClientRow } from './table';

function clientCondition(scope: TenantScope, clientId: string): SQL | undefined {
  return and(scopeCondition(apiClients, scope), eq(apiClients.clientId, clientId));
}

export async function findApiClient(db: Database, scope: TenantScope, clientId: string): Promise<ApiClientRow | undefined> {
  const rows = await db.select().from(apiClients).where(clientCondition(scope, clientId)).limit(1);
  return rows[0];
}

/** Every client of the tenant/org, oldest first. */
export async function listApiClients(db: Database, scope: TenantScope): Promise<ApiClientRow[]> {
  return db.select().from(apiClients).where(scopeCondition(apiClients, scope)).orderBy(asc(apiClients.createdOn), asc(apiClients.id));
}

export async function insertApiClient(db: Database, row: ApiClientRow): Promise<void> {
  await runWrites(db, [db.insert(apiClients).values(row)]);
}

/** Sets columns of one client (bumping version and the audit fields); answers the row after the change, if any. */
export async function updateApiClient(
  db: Database,
  scope: TenantScope,
  clientId: string,
  set: Partial<Pick<ApiClientRow, 'secretHash' | 'secretIssuedOn' | 'revokedOn'>>,
  stamp: AuditStamp,
): Promise<ApiClientRow | undefined> {
  const update = db
    .update(apiClients)
    .set({ ...set, version: sql`${apiClients.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by })
    .where(clientCondition(scope, clientId))
    .returning();
  const [rows] = await runWrites(db, [update]);
  return rows[0];
}

/** Deletes one client; answers whether it existed. */
export async function deleteApiClient(db: Database, scope: TenantScope, clientId: string): Promise<boolean> {
  const [rows] = await runWrites(db, [db.delete(apiClients).where(clientCondition(scope, clientId)).returning({ id: apiClients.id })]);
  return rows.length > 0;
}
