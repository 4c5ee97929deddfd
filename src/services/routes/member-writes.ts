/** The member rows of a new route (its tools), chunked under D1's 100 bound parameters. */
import { chunkForParameters } from '../../db/client';
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
  const rows = keys.map((memberKey) => ({ ownerId: routeId, tenantKey: scope.tenantKey, orgKey: scope.orgKey, memberKey }));
  return chunkForParameters(rows, 4).map((chunk) => db.insert(kind.table).values(chunk).onConflictDoNothing());
}
