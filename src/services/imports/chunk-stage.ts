/**
 * A chunk's writes as staged writes of the tenant unit of work (src/tenant/unit-of-work.ts): the chunk's creates (one
 * `INSERT ... SELECT ... FROM json_each(?)` and their `created` events, built by the commit path), its ledger row, and
 * the undo of a chunk (its records deleted with their `deleted` events, the ledger row marked). A chunk's writes are
 * staged in one batch and committed as ONE D1 batch: the chunk is one atomic write.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { is } from 'drizzle-orm';
import { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { parseConstraintViolation, scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { deletedEventOf, keyExpression, resourceOf } from '../../resources/entities/events';
import { stageUpdate } from '../../resources/entities/record-updates';
import type { EntityStore } from '../../resources/entities/store';
import { bindCompiled, bindRequestQuery, bindRequestStatement } from '../../tenant/compiled';
import { rowsOf } from '../../tenant/unit-of-work';
import type { StagedWrite, WriteContext } from '../../tenant/unit-of-work';
import type { ImportTemplate } from '../../resources/entities/import-template';
import { encodeKeptFailures } from './files/failures-kept';
import type { ChunkEntry, UpdatedRecord } from './ledger-entry';
import { collectMemberPairs } from './members';
import type { MemberKeys } from './members';
import type { PlannedUpdate } from './upsert';
import { importChunks } from './table';

/** A row ready to insert: its id, natural key and its own columns' values as stored, by field name (no scope, no audit). */
export interface PreparedRow {
  readonly id: string;
  readonly key: string;
  readonly columns: Readonly<Record<string, unknown>>;
  /** Member keys by member column (routes: locations, ...). */
  readonly members?: MemberKeys;
}

/** `json_extract(value, '$."name"')`: one column of a `json_each` row (field names are identifiers). */
function extract(name: string): SQL {
  if (!/^\w+$/.test(name)) throw new Error(`Column ${name} is not an identifier.`);
  return sql.raw(`json_extract(value, '$."${name}"')`);
}

/** `(SELECT value FROM json_each(?))`: a list of values as one bound parameter. */
function jsonList(values: readonly unknown[]): SQL {
  return sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/** What every created record of a chunk shares: its scope, audit stamp and version 1 (bound once, not per row). */
function sharedColumns({ scope, stamp }: WriteContext): Readonly<Record<string, unknown>> {
  const { tenantKey, orgKey } = scope;
  return { tenantKey, orgKey, createdOn: stamp.on, createdBy: stamp.by, modifiedOn: stamp.on, modifiedBy: stamp.by, version: 1 };
}

/**
 * The most JSON text one statement binds: D1 takes a value of up to 2,000,000 bytes, and a UTF-16 unit is at most 3
 * bytes of UTF-8, so a chunk of long rows takes several statements.
 */
const MAX_JSON_CHARS = 600_000;

/** Rows as JSON arrays of at most MAX_JSON_CHARS characters (a row longer than that alone in its array). */
function groupRows(rows: readonly Record<string, unknown>[]): string[] {
  const groups: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (current.length > 0 && length + text.length > MAX_JSON_CHARS) {
      groups.push(`[${current.join(',')}]`);
      current = [];
      length = 0;
    }
    current.push(text);
    length += text.length + 1;
  }
  if (current.length > 0) groups.push(`[${current.join(',')}]`);
  return groups;
}

/** The chunk's records as `INSERT ... SELECT ... FROM json_each(?)` statements (columns in table order; usually one). */
function buildInserts(context: WriteContext, store: EntityStore, rows: readonly PreparedRow[]) {
  const shared = sharedColumns(context);
  const names = Object.entries(store.columns)
    .filter(([, target]) => is(target, SQLiteColumn))
    .map(([name]) => name);
  const select = names.map((name) => (name in shared ? sql`${shared[name]}` : extract(name)));
  return groupRows(rows.map((row) => ({ ...row.columns, id: row.id }))).map((json) =>
    context.db.insert(store.table).select(sql`SELECT ${sql.join(select, sql`, `)} FROM json_each(${json})`),
  );
}

function idsCondition(store: EntityStore, scope: TenantScope, ids: readonly string[]): SQL | undefined {
  return and(scopeCondition(store.common, scope), inArray(store.common.id, jsonList(ids)));
}

/** A chunk refused by a unique index: a record of one of its keys was stored meanwhile. */
class ChunkConflict extends Error {
  constructor(entity: string) {
    super(`A ${entity} record of the chunk's keys was stored meanwhile.`);
  }
}

/**
 * The chunk's creates and their `created` events (selected from the rows just inserted). A unique violation (a key
 * stored meanwhile by another writer) refuses the chunk's batch: the step runs again and checks the chunk again.
 */
export function stageChunkCreates(template: ImportTemplate, store: EntityStore, rows: readonly PreparedRow[]): StagedWrite<number> {
  return {
    plan(context) {
      const members = collectMemberPairs(template, rows).map(({ column, pairs }) => {
        const member = template.members?.find((item) => item.column === column);
        if (!member) throw new Error(`No member column ${column}.`);
        return { statement: bindCompiled(bindRequestStatement(member.insert(context.db, context.scope, pairs)), {}) };
      });
      const inserts = buildInserts(context, store, rows).map((insert) => ({ statement: bindCompiled(bindRequestStatement(insert), {}) }));
      const fields = { resource: resourceOf(store.spec), changeType: 'created' as const, version: 1 };
      const event = {
        fields: { ...fields, recordId: sql`${store.common.id}`, key: keyExpression(store) },
        from: sql`FROM ${store.table} WHERE ${idsCondition(
          store,
          context.scope,
          rows.map((row) => row.id),
        )}`,
      };
      return {
        table: store.spec.table,
        statements: [...inserts, ...members, { event }],
        settle: () => rows.length,
        explain: (error) => (parseConstraintViolation(error) === 'unique' ? new ChunkConflict(store.spec.name) : undefined),
      };
    },
  };
}

/** The chunk's ledger row (primary key: the import and chunk index, so a chunk is never written twice). */
export function stageLedgerEntry(entry: ChunkEntry): StagedWrite<void> {
  return {
    plan({ db, scope }) {
      const insert = db.insert(importChunks).values({
        ...scope,
        importId: entry.importId,
        chunkIndex: entry.chunkIndex,
        ...entry.counts,
        createdIds: JSON.stringify(entry.createdIds),
        updated: JSON.stringify(entry.updated),
        failures: encodeKeptFailures(entry.failures),
        endOffset: entry.endOffset,
        endRow: entry.endRow,
        createdOn: entry.on,
      });
      return {
        table: 'import_chunks',
        statements: [{ statement: bindCompiled(bindRequestStatement(insert), {}) }],
        settle: () => undefined,
      };
    },
  };
}

/**
 * Which chunk's records to delete; `keepChanged`: a record changed since the import is left (its version is not 1, or
 * not the one `versions` gives: revert-chain.ts).
 */
interface ChunkUndo {
  readonly importId: string;
  readonly chunkIndex: number;
  readonly createdIds: readonly string[];
  readonly keepChanged: boolean;
  readonly versions?: Readonly<Record<string, number>>;
}

/** The created record is at the version it is unchanged at: 1, or the one `versions` names for its id. */
function unchangedCondition(store: EntityStore, versions: Readonly<Record<string, number>> = {}): SQL {
  if (Object.keys(versions).length === 0) return eq(store.common.version, 1);
  return sql`${store.common.version} = coalesce(json_extract(${JSON.stringify(versions)}, '$."' || ${store.common.id} || '"'), 1)`;
}

/** The mark of a chunk's ledger row as undone (only once: a chunk undone twice changes nothing). */
export function buildChunkMark({ db, scope, stamp }: WriteContext, importId: string, chunkIndex: number) {
  return db
    .update(importChunks)
    .set({ undoneOn: stamp.on })
    .where(
      and(
        scopeCondition(importChunks, scope),
        eq(importChunks.importId, importId),
        eq(importChunks.chunkIndex, chunkIndex),
        isNull(importChunks.undoneOn),
      ),
    );
}

/** A chunk undone: its records deleted (their `deleted` events first), its ledger row marked; answers the ids deleted. */
export function stageChunkUndo(store: EntityStore, undo: ChunkUndo): StagedWrite<readonly string[]> {
  return {
    plan({ db, scope, stamp }) {
      const condition = and(
        idsCondition(store, scope, undo.createdIds),
        ...(undo.keepChanged ? [unchangedCondition(store, undo.versions)] : []),
      );
      const returned = { id: store.common.id };
      const remove = bindRequestQuery(db.delete(store.table).where(condition).returning(returned), returned);
      const mark = buildChunkMark({ db, scope, stamp }, undo.importId, undo.chunkIndex);
      const deletes = undo.createdIds.length > 0 ? [{ event: deletedEventOf(store, condition) }, { statement: remove }] : [];
      return {
        table: store.spec.table,
        statements: [...deletes, { statement: bindCompiled(bindRequestStatement(mark), {}) }],
        settle: (rows) => (deletes.length > 0 ? rowsOf(remove, rows[1]).map((row) => row.id) : []),
      };
    },
  };
}

/** An upsert's update of a stored record, at the version the chunk's check read (the entity's own attribute update). */
export function stageRecordUpdate(store: EntityStore, update: PlannedUpdate): StagedWrite<number | undefined> {
  return stageUpdate(store, { lookup: { by: 'id', id: update.id }, expectedVersion: update.expectedVersion }, update.set);
}

/**
 * A record an upsert updated, given its pre-import values back when it is still at the version the import left
 * (the entity's own update, its `updated` event included); its result: the new version, or undefined when someone
 * changed (or deleted) it since, and it is left as it is.
 */
export function stageRestore(store: EntityStore, record: UpdatedRecord): StagedWrite<number | undefined> {
  return stageUpdate(store, { lookup: { by: 'id', id: record.id }, expectedVersion: record.version }, record.before);
}
