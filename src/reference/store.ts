/** Reading and writing reference records; standard lists are cached in memory per isolate. */
import { and, eq, inArray } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { ApiError } from '../http/errors';
import type { FieldError } from '../http/errors';
import type { TenantScope } from '../entities/repository';
import { canonicalizeReferenceKey, findReferenceKind } from './kinds';
import type { ReferenceKindSpec, ReferenceRecord } from './spec';
import { readReferenceTable } from './tables';

const standardCache = new Map<string, Promise<ReadonlyMap<string, ReferenceRecord>>>();

function columnOf(kind: string, name: string): SQLiteColumn {
  const table = readReferenceTable(kind) as unknown as Record<string, SQLiteColumn>;
  const column = table[name];
  if (!column) throw new Error(`${kind} has no column ${name}`);
  return column;
}

/** A standard list (cultures, currencies): read from D1 once per isolate, then served from memory. */
export function readStandardList(db: Database, kind: string): Promise<ReadonlyMap<string, ReferenceRecord>> {
  let cached = standardCache.get(kind);
  if (!cached) {
    cached = db
      .select()
      .from(readReferenceTable(kind))
      .orderBy(columnOf(kind, 'key'))
      .then((rows) => new Map((rows as ReferenceRecord[]).map((row) => [row.key, row])));
    cached.catch(() => standardCache.delete(kind));
    standardCache.set(kind, cached);
  }
  return cached;
}

function toRecord(spec: ReferenceKindSpec, row: Record<string, unknown>): ReferenceRecord {
  const record: ReferenceRecord = { id: String(row.id), key: String(row.key) };
  for (const name of Object.keys(spec.fields)) record[name] = row[name] ?? null;
  return record;
}

export async function listReferenceRecords(db: Database, spec: ReferenceKindSpec, scope: TenantScope): Promise<ReferenceRecord[]> {
  if (spec.standard) return [...(await readStandardList(db, spec.kind)).values()].map((row) => toRecord(spec, row));
  const rows = await db
    .select()
    .from(readReferenceTable(spec.kind))
    .where(and(eq(columnOf(spec.kind, 'tenantKey'), scope.tenantKey), eq(columnOf(spec.kind, 'orgKey'), scope.orgKey)))
    .orderBy(columnOf(spec.kind, 'key'));
  return rows.map((row) => toRecord(spec, row));
}

export interface ReferenceUse {
  readonly kind: string;
  readonly key: string;
  /** Request field that holds the key (for the error). */
  readonly path: string;
}

/**
 * Resolves reference keys: standard kinds from memory, tenant kinds with one D1 batch for all kinds.
 * Returns the records found by kind and key.
 */
export async function resolveReferences(
  db: Database,
  scope: TenantScope,
  uses: readonly ReferenceUse[],
): Promise<Map<string, Map<string, ReferenceRecord>>> {
  const found = new Map<string, Map<string, ReferenceRecord>>();
  const tenantKinds = new Map<string, Set<string>>();
  for (const use of uses) {
    const spec = findReferenceKind(use.kind);
    if (!spec) throw new Error(`Unknown reference kind ${use.kind}`);
    if (spec.standard) {
      const list = await readStandardList(db, spec.kind);
      const record = list.get(canonicalizeReferenceKey(use.kind, use.key));
      if (record) (found.get(use.kind) ?? found.set(use.kind, new Map()).get(use.kind))?.set(use.key, record);
    } else {
      (tenantKinds.get(use.kind) ?? tenantKinds.set(use.kind, new Set()).get(use.kind))?.add(use.key);
    }
  }
  const queries = [...tenantKinds].flatMap(([kind, keys]) =>
    chunkKeys([...keys]).map((chunk) => ({
      kind,
      query: db
        .select()
        .from(readReferenceTable(kind))
        .where(
          and(
            eq(columnOf(kind, 'tenantKey'), scope.tenantKey),
            eq(columnOf(kind, 'orgKey'), scope.orgKey),
            inArray(columnOf(kind, 'key'), chunk),
          ),
        ),
    })),
  );
  if (queries.length > 0) {
    const [first, ...rest] = queries.map((item) => item.query);
    const results = first ? await db.batch([first, ...rest]) : [];
    results.forEach((rows, index) => {
      const kind = queries[index]?.kind as string;
      const spec = findReferenceKind(kind) as ReferenceKindSpec;
      const map = found.get(kind) ?? found.set(kind, new Map()).get(kind);
      for (const row of rows as Record<string, unknown>[]) map?.set(String(row.key), toRecord(spec, row));
    });
  }
  return found;
}

function chunkKeys(keys: string[]): string[][] {
  // Two parameters go to tenant and org; the rest of D1's 100 to the keys.
  const chunks: string[][] = [];
  for (let start = 0; start < keys.length; start += 90) chunks.push(keys.slice(start, start + 90));
  return chunks;
}

/** Throws 400 UnknownReference naming every key that does not exist. */
export async function assertReferencesExist(
  db: Database,
  scope: TenantScope,
  uses: readonly ReferenceUse[],
): Promise<Map<string, Map<string, ReferenceRecord>>> {
  const found = await resolveReferences(db, scope, uses);
  const errors: FieldError[] = uses
    .filter((use) => !found.get(use.kind)?.has(use.key))
    .map((use) => ({ path: use.path, message: `Unknown ${use.kind} key '${use.key}'.` }));
  if (errors.length > 0) {
    throw new ApiError('UnknownReference', `Unknown reference(s): ${errors.map((error) => error.message).join(' ')}`, { errors });
  }
  return found;
}
