/** Statements that add and remove a route's members, chunked under D1's 100 bound parameters. */
import { and, eq, inArray } from 'drizzle-orm';
import { chunkForParameters, chunkKeys } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import type { WriteStatement } from '../../db/writes';
import type { MemberKind } from './members';

/** Inserts (a member already present is left alone); four parameters per row. */
export function buildMemberInserts(
  db: Database,
  scope: TenantScope,
  kind: MemberKind,
  routeId: string,
  keys: readonly string[],
): WriteStatement[] {
  const rows = keys.map((memberKey) => ({ routeId, tenantKey: scope.tenantKey, orgKey: scope.orgKey, memberKey }));
  return chunkForParameters(rows, 4).map((chunk) => db.insert(kind.table).values(chunk).onConflictDoNothing());
}

export function buildMemberDeletes(
  db: Database,
  scope: TenantScope,
  kind: MemberKind,
  routeId: string,
  keys: readonly string[],
): WriteStatement[] {
  const table = kind.table;
  return chunkKeys(keys).map((chunk) =>
    db
      .delete(table)
      .where(
        and(
          eq(table.tenantKey, scope.tenantKey),
          eq(table.orgKey, scope.orgKey),
          eq(table.routeId, routeId),
          inArray(table.memberKey, chunk),
        ),
      ),
  );
}
