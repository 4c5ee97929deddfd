/**
 * Tenant databases seen by a job that scans across tenant/orgs (the cron trigger): reads only, no residency guard (a
 * job that must write for a tenant/org opens that tenant/org's session, whose writes carry the guard).
 */
import { bindSelect } from '../../db/sql';
import type { SelectQuery } from '../../db/sql';
import type { DatabaseSet } from '../d1/databases';

export interface DatabaseScan {
  readonly name: string;
  read<T>(query: SelectQuery<T>): Promise<T[]>;
}

export function scanEveryTenantDatabase(databases: DatabaseSet): DatabaseScan[] {
  return databases.names.map((name) => {
    const binding = databases.tenants.get(name);
    if (!binding) throw new Error(`${name} is not bound.`);
    return {
      name,
      async read(query) {
        const statement = bindSelect(query);
        const { results } = await binding
          .prepare(statement.sql)
          .bind(...statement.params)
          .all<Record<string, unknown>>();
        return results.map((row) => statement.mapRow(Object.values(row)));
      },
    };
  });
}
