/**
 * Which version of a record still holds what an import left, when later imports of the same template were undone.
 * A revert leaves a record it finds changed since the import (its version is no longer the one the import left); but
 * undoing a later import writes values back with a version of its own (`version` + 1 or + 2), which is no change of
 * the record's values. So an undo notes, on its ledger entry of each record it gave its values back, that version
 * `to` holds what version `from` held (`equivalent: [from, to]`); a revert of an earlier import follows those notes,
 * in import order, from the version it left: the record is unchanged when it is at the version they lead to. The
 * notes are written by src/services/imports/revert-notes.ts.
 */
import { sql } from 'drizzle-orm';
import type { Database, TenantScope } from '../../db/client';
import { keyExpression } from './events';
import type { EntityStore } from './store';

/** An entry of a chunk's `updated` list given its values back: version `to` holds what version `from` held. */
export interface Equivalence {
  readonly index: number;
  readonly from: number;
  readonly to: number;
}

/**
 * The version each record of `ids` is at when it still holds what import `importId` left at `versions` (its version
 * after the import), following the notes of the template's later imports that were undone.
 */
export async function resolveUnchangedVersions(
  db: Database,
  scope: TenantScope,
  importId: string,
  versions: ReadonlyMap<string, number>,
): Promise<Map<string, number>> {
  const resolved = new Map(versions);
  if (versions.size === 0) return resolved;
  const rows = await db.all<{ id: string; f: number; t: number }>(
    sql`SELECT json_extract(e.value, '$.id') AS id, json_extract(e.value, '$.equivalent[0]') AS f, json_extract(e.value, '$.equivalent[1]') AS t
      FROM import_data_infos AS a
      JOIN import_data_infos AS i ON i.tenant_key = a.tenant_key AND i.org_key = a.org_key AND i.import_data_template = a.import_data_template AND i.key > a.key
      JOIN import_chunks AS c ON c.tenant_key = i.tenant_key AND c.org_key = i.org_key AND c.import_id = i.id, json_each(c.updated) AS e
      WHERE a.tenant_key = ${scope.tenantKey} AND a.org_key = ${scope.orgKey} AND a.id = ${importId} AND c.undone_on IS NOT NULL
        AND json_type(e.value, '$.equivalent') = 'array' AND json_extract(e.value, '$.id') IN (SELECT value FROM json_each(${JSON.stringify([...versions.keys()])}))
      ORDER BY i.key, c.chunk_index`,
  );
  for (const row of rows) if (resolved.get(row.id) === Number(row.f)) resolved.set(row.id, Number(row.t));
  return resolved;
}

/** The natural keys of records (`emailTemplates 'welcome'`, `routes 'ACME-PT/ROUTE-01'`), in the order of `ids`; an id not found stays an id. */
export async function nameRecords(
  db: Database,
  scope: TenantScope,
  template: { readonly name: string; readonly store: EntityStore },
  ids: readonly string[],
): Promise<string[]> {
  const { store } = template;
  if (ids.length === 0) return [];
  const rows = await db.all<{ id: string; k: string }>(
    sql`SELECT ${store.common.id} AS id, ${keyExpression(store)} AS k FROM ${store.table} WHERE ${store.common.tenantKey} = ${scope.tenantKey} AND ${store.common.orgKey} = ${scope.orgKey} AND ${store.common.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );
  const keys = new Map(rows.map((row) => [row.id, row.k]));
  return ids.map((id) => `${template.name} '${keys.get(id) ?? id}'`);
}
