/** Reading reference records; standard lists are read once per isolate (through the tenant database) and kept in memory. */
import { and, inArray } from 'drizzle-orm';
import { chunkKeys, scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import { errorOfFields } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import type { ReferenceKindSpec, ReferenceRecord } from './spec';
import { findStandardStore, requireTenantReferenceStore } from './tables';
import type { StandardStore, TenantReferenceStore } from './tables';
import { message } from '../../messages/catalogue';
import type { GroupOverlay } from '../../tenant/atomic-group';
import { applyGroupToReferences } from './group-records';

const standardCache = new Map<string, Promise<ReadonlyMap<string, ReferenceRecord>>>();

/** Every column of a reference table, with `id` and `key` typed. */
function selectionOf(store: StandardStore | TenantReferenceStore) {
  return { ...store.columns, id: store.common.id, key: store.common.key };
}

function toRecord(
  store: StandardStore | TenantReferenceStore,
  row: Readonly<Record<string, unknown>> & { id: string; key: string },
): ReferenceRecord {
  const record: { id: string; key: string; [field: string]: unknown } = { id: row.id, key: row.key };
  for (const name of Object.keys(store.spec.fields)) record[name] = row[name] ?? null;
  return record;
}

/**
 * A standard list (cultures, currencies), read through the tenant/org's database once per isolate, then served from
 * memory (the lists only change with a migration, and every database holds the same ones).
 */
export function loadStandardList(db: Database, kind: string): Promise<ReadonlyMap<string, ReferenceRecord>> {
  const store = findStandardStore(kind);
  if (!store) throw new Error(`${kind} is not a standard list`);
  let cached = standardCache.get(kind);
  if (!cached) {
    cached = db
      .select(selectionOf(store))
      .from(store.table)
      .orderBy(store.common.key)
      .then((rows) => new Map(rows.map((row) => [row.key, toRecord(store, row)])));
    cached.catch(() => standardCache.delete(kind));
    standardCache.set(kind, cached);
  }
  return cached;
}

export async function listReferenceRecords(db: Database, spec: ReferenceKindSpec, scope: TenantScope): Promise<ReferenceRecord[]> {
  if (spec.storage === 'standard') return [...(await loadStandardList(db, spec.name)).values()];
  const store = requireTenantReferenceStore(spec.name);
  const rows = await db.select(selectionOf(store)).from(store.table).where(scopeCondition(store.common, scope)).orderBy(store.common.key);
  return rows.map((row) => toRecord(store, row));
}

/** The query of a tenant kind's records with these keys (batchable). */
function selectReferencesByKey(db: Database, store: TenantReferenceStore, scope: TenantScope, keys: readonly string[]) {
  return db
    .select(selectionOf(store))
    .from(store.table)
    .where(and(scopeCondition(store.common, scope), inArray(store.common.key, [...keys])));
}

export interface ReferenceUse {
  readonly kind: string;
  readonly key: string;
  /** Request field that holds the key (for the error). */
  readonly path: string;
}

/** Records found, by kind and key. */
export type FoundReferences = Map<string, Map<string, ReferenceRecord>>;

function addFound(found: FoundReferences, kind: string, record: ReferenceRecord): void {
  let byKey = found.get(kind);
  if (!byKey) {
    byKey = new Map();
    found.set(kind, byKey);
  }
  byKey.set(record.key, record);
}

/**
 * Finds the records that reference keys name: standard kinds from memory, tenant kinds with one D1 batch for all kinds;
 * with an atomic group's `overlay`, as the group leaves them (group-records.ts).
 */
export async function findReferences(
  db: Database,
  scope: TenantScope,
  uses: readonly ReferenceUse[],
  overlay?: GroupOverlay,
): Promise<FoundReferences> {
  const found: FoundReferences = new Map();
  const tenantKeys = new Map<string, Set<string>>();
  for (const use of uses) {
    if (findStandardStore(use.kind)) {
      const record = (await loadStandardList(db, use.kind)).get(use.key);
      if (record) addFound(found, use.kind, record);
    } else {
      const keys = tenantKeys.get(use.kind) ?? new Set<string>();
      tenantKeys.set(use.kind, keys.add(use.key));
    }
  }
  const queries = [...tenantKeys].flatMap(([kind, keys]) => {
    const store = requireTenantReferenceStore(kind);
    return chunkKeys([...keys]).map((chunk) => ({ store, query: selectReferencesByKey(db, store, scope, chunk) }));
  });
  const results = await runReads(
    db,
    queries.map((item) => item.query),
  );
  results.forEach((rows, index) => {
    const store = queries[index]?.store;
    if (store) for (const row of rows) addFound(found, store.spec.name, toRecord(store, row));
  });
  if (overlay) for (const [kind, keys] of tenantKeys) applyGroup(found, overlay, kind, keys);
  return found;
}

/** The records found of a tenant kind, with the group's writes applied. */
function applyGroup(found: FoundReferences, overlay: GroupOverlay, kind: string, keys: ReadonlySet<string>): void {
  const store = requireTenantReferenceStore(kind);
  const stored = [...(found.get(kind)?.values() ?? [])];
  const records = applyGroupToReferences(overlay, store, stored, (record) => keys.has(record.key));
  found.set(kind, new Map(records.filter((record) => keys.has(record.key)).map((record) => [record.key, record])));
}

/** The uses of standard kinds (cultures, currencies) whose key is not in the list (from memory); tenant kinds are left out. */
export async function findUnknownStandardReferences(db: Database, uses: readonly ReferenceUse[]): Promise<ReferenceUse[]> {
  const unknown: ReferenceUse[] = [];
  for (const use of uses) if (findStandardStore(use.kind) && !(await loadStandardList(db, use.kind)).has(use.key)) unknown.push(use);
  return unknown;
}

/**
 * Throws 400 UnknownReference naming every key that does not exist (in an atomic group, as its `overlay` leaves
 * them); answers the records found.
 */
export async function checkReferencesExist(
  db: Database,
  scope: TenantScope,
  uses: readonly ReferenceUse[],
  overlay?: GroupOverlay,
): Promise<FoundReferences> {
  const found = await findReferences(db, scope, uses, overlay);
  const errors: FieldError[] = uses
    .filter((use) => !found.get(use.kind)?.has(use.key))
    .map((use) => ({ path: use.path, message: message('unknownReference', { kind: use.kind, key: use.key }) }));
  if (errors.length > 0) throw errorOfFields('UnknownReference', errors);
  return found;
}
