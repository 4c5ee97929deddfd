/**
 * The handles of `openEveryTenantDatabase()` (cross-tenant jobs): they scan, they never write. A job that must write
 * for a tenant/org opens that tenant/org's database, whose writes carry the residency guard (tenant-d1.ts).
 */
import { isReadOnly } from './guard';

export function readOnlyD1(binding: D1Database, name: string): D1Database {
  const refuse = (query: string) => {
    if (!isReadOnly(query)) throw new Error(`${name} is open for cross-tenant reads only; write through the tenant/org's database.`);
  };
  return {
    prepare: (query) => {
      refuse(query);
      return binding.prepare(query);
    },
    batch: (statements) => binding.batch(statements),
    exec: () => Promise.reject(new Error(`${name} is open for cross-tenant reads only.`)),
    withSession: (constraint) => {
      const session = binding.withSession(constraint);
      return {
        prepare: (query) => {
          refuse(query);
          return session.prepare(query);
        },
        batch: (statements) => session.batch(statements),
        getBookmark: () => session.getBookmark(),
      };
    },
    dump: () => binding.dump(),
  };
}
