/**
 * D1 storage of API clients: every statement is scoped by tenant and org; writes are staged in the request's unit of
 * work (src/tenant/unit-of-work.ts), planned at commit with its scope and audit stamp.
 */
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { TenantReader } from '../../tenant/session';
import { bindCompiled, bindRequestQuery, bindRequestStatement } from '../../tenant/compiled';
import { rowsOf } from '../../tenant/unit-of-work';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { apiClients } from './table';
import type { ApiClientRow } from './table';

function clientCondition(scope: TenantScope, clientId: string): SQL | undefined {
  return and(scopeCondition(apiClients, scope), eq(apiClients.clientId, clientId));
}

export async function findApiClient(tenant: TenantReader, clientId: string): Promise<ApiClientRow | undefined> {
  const rows = await tenant.read(sqlBuilder.select().from(apiClients).where(clientCondition(tenant.scope, clientId)).limit(1));
  return rows[0];
}

/** Every client of the tenant/org, oldest first. */
export async function listApiClients(tenant: TenantReader): Promise<ApiClientRow[]> {
  return tenant.read(
    sqlBuilder
      .select()
      .from(apiClients)
      .where(scopeCondition(apiClients, tenant.scope))
      .orderBy(asc(apiClients.createdOn), asc(apiClients.id)),
  );
}

/** A client to register: what its creator chose, its ids and its secret's digest (the tenant/org and audit fields: the unit's). */
type ApiClientRegistration = Pick<ApiClientRow, 'id' | 'clientId' | 'name' | 'secretHash' | 'scopes' | 'orgs'>;

/** The insert of a new client, its secret issued at the unit's time; its result is the stored row. */
export function stageApiClientInsert(registration: ApiClientRegistration): StagedWrite<ApiClientRow> {
  return {
    plan({ scope, stamp }) {
      const row: ApiClientRow = {
        ...registration,
        tenantKey: scope.tenantKey,
        orgKey: scope.orgKey,
        secretIssuedOn: stamp.on,
        revokedOn: null,
        version: 1,
        createdOn: stamp.on,
        createdBy: stamp.by,
        modifiedOn: stamp.on,
        modifiedBy: stamp.by,
      };
      const insert = bindCompiled(bindRequestStatement(sqlBuilder.insert(apiClients).values(row)), {});
      return { table: 'api_clients', statements: [{ statement: insert }], settle: () => row };
    },
  };
}

/** Sets columns of one client (bumping version and the audit fields); its result is the row after the change, if any. */
export function stageApiClientUpdate(
  clientId: string,
  set: Partial<Pick<ApiClientRow, 'secretHash' | 'secretIssuedOn' | 'revokedOn'>>,
): StagedWrite<ApiClientRow | undefined> {
  return {
    plan({ scope, stamp }) {
      const columns = getTableColumns(apiClients);
      const update = bindRequestQuery(
        sqlBuilder
          .update(apiClients)
          .set({ ...set, version: sql`${apiClients.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by })
          .where(clientCondition(scope, clientId))
          .returning(columns),
        columns,
      );
      return { table: 'api_clients', statements: [{ statement: update }], settle: ([rows]) => rowsOf(update, rows)[0] };
    },
  };
}

/** Deletes one client; its result is whether it existed. */
export function stageApiClientDelete(clientId: string): StagedWrite<boolean> {
  return {
    plan({ scope }) {
      const returned = { id: apiClients.id };
      const remove = bindRequestQuery(sqlBuilder.delete(apiClients).where(clientCondition(scope, clientId)).returning(returned), returned);
      return { table: 'api_clients', statements: [{ statement: remove }], settle: ([rows]) => rowsOf(remove, rows).length > 0 };
    },
  };
}
