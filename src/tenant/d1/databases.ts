/**
 * The D1 databases of a deployment: the directory (binding `DIRECTORY`) and every tenant database (every binding
 * whose name starts with `TENANT_DB_`), discovered from the bindings so that adding a database is configuration
 * (a `[[d1_databases]]` block and a migration run), not code.
 */

export const DIRECTORY_BINDING = 'DIRECTORY';
export const TENANT_DATABASE_PREFIX = 'TENANT_DB_';

export interface DatabaseSet {
  readonly directory: D1Database;
  /** Tenant databases by binding name. */
  readonly tenants: ReadonlyMap<string, D1Database>;
  /** Binding names of the tenant databases, sorted (the placement rule breaks ties in this order). */
  readonly names: readonly string[];
}

function isD1Database(value: unknown): value is D1Database {
  if (typeof value !== 'object' || value === null) return false;
  if (!('prepare' in value && 'batch' in value && 'withSession' in value)) return false;
  return typeof value.prepare === 'function' && typeof value.batch === 'function' && typeof value.withSession === 'function';
}

const known = new WeakMap<object, DatabaseSet>();

/** Reads and checks the databases among `bindings` (once per bindings object); a wrong configuration throws, naming it. */
export function readDatabaseSet(bindings: object): DatabaseSet {
  const cached = known.get(bindings);
  if (cached) return cached;
  const entries: [string, unknown][] = Object.entries(bindings);
  const directory = entries.find(([name]) => name === DIRECTORY_BINDING)?.[1];
  const problems: string[] = [];
  if (!isD1Database(directory)) problems.push(`${DIRECTORY_BINDING} must be a D1 binding`);
  const tenants = new Map<string, D1Database>();
  for (const [name, value] of entries) {
    if (!name.startsWith(TENANT_DATABASE_PREFIX)) continue;
    if (isD1Database(value)) tenants.set(name, value);
    else problems.push(`${name} must be a D1 binding`);
  }
  if (tenants.size === 0) problems.push(`bind at least one tenant database (a D1 binding named ${TENANT_DATABASE_PREFIX}<name>)`);
  if (problems.length > 0 || !isD1Database(directory)) throw new Error(`Invalid database configuration: ${problems.join('; ')}.`);
  const names = [...tenants.keys()].sort();
  const set: DatabaseSet = { directory, tenants, names };
  known.set(bindings, set);
  return set;
}
