/**
 * Lines an upsert of a file adds to a stored document, and their removal by the import's undo, written as the line
 * operations write them: the line rows, the document's version + 1 and its `updated` event (naming the pairs), all
 * only while the document is at the version the change expects (and, `stamped`, last changed by this unit: a restore
 * just made), so either all of it is written or none. A chunk adding several lines to a document bumps it once.
 */
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import { updatedEventOf } from '../../resources/entities/events';
import { bindVersionTouch } from '../../resources/entities/record-updates';
import { planStatement } from '../../tenant/staged-statements';
import { rowsOf } from '../../tenant/unit-of-work';
import type { StagedWrite, WriteContext } from '../../tenant/unit-of-work';
import type { LineInput } from './lines-input';
import { toLineRow } from './lines-store';
import { exchangeRateLines, exchangeRatesDocumentStore } from './table';

const store = exchangeRatesDocumentStore;
const lines = exchangeRateLines;

/** Lines added to (with their new ids) or removed from (by id) one document at `expectedVersion`. */
type DocumentLinesChange = {
  readonly parentId: string;
  readonly expectedVersion: number;
  readonly stamped?: boolean;
  /** The pairs (`EUR>USD`) the event names. */
  readonly pairs: readonly string[];
} & (
  | { readonly action: 'added'; readonly lines: readonly (LineInput & { readonly id: string })[] }
  | { readonly action: 'removed'; readonly ids: readonly string[] }
);

/** The line rows as one `INSERT ... SELECT FROM json_each(?)`, numbered after the document's last line. */
function buildLinesInsert(
  { db, scope, stamp }: WriteContext,
  parentId: string,
  added: readonly (LineInput & { readonly id: string })[],
  onlyIf: SQL,
) {
  const rows = added.map((line) => ({ ...toLineRow(scope, parentId, 0, line, stamp), id: line.id }));
  const field = (name: string) => sql.raw(`json_extract(value, '$.${name}')`);
  const next = sql`(SELECT coalesce(max(${lines.position}), 0) FROM ${lines} WHERE ${scopeCondition(lines, scope)} AND ${lines.parentId} = ${parentId}) + key + 1`;
  // Every column in the table's order (the insert names them so): the shared values bound once, the rest per row.
  const shared: Readonly<Record<string, SQL>> = {
    tenantKey: sql`${scope.tenantKey}`,
    orgKey: sql`${scope.orgKey}`,
    parentId: sql`${parentId}`,
    position: next,
    createdOn: sql`${stamp.on}`,
    createdBy: sql`${stamp.by}`,
    modifiedOn: sql`${stamp.on}`,
    modifiedBy: sql`${stamp.by}`,
  };
  const select = Object.keys(getTableColumns(lines)).map((name) => shared[name] ?? field(name));
  return db.insert(lines).select(sql`SELECT ${sql.join(select, sql`, `)} FROM json_each(${JSON.stringify(rows)}) WHERE ${onlyIf}`);
}

/** Stages the change; its result: whether it was written (the document was at the expected version). */
export function stageDocumentLines(change: DocumentLinesChange): StagedWrite<boolean> {
  return {
    plan(context) {
      const { db, scope, stamp } = context;
      const condition = and(
        scopeCondition(store.common, scope),
        eq(store.common.id, change.parentId),
        eq(store.common.version, change.expectedVersion),
        ...(change.stamped ? [eq(store.common.modifiedOn, stamp.on), eq(store.common.modifiedBy, stamp.by)] : []),
      );
      const onlyIf = sql`EXISTS (SELECT 1 FROM ${store.table} WHERE ${condition})`;
      const statement =
        change.action === 'added'
          ? buildLinesInsert(context, change.parentId, change.lines, onlyIf)
          : db
              .delete(lines)
              .where(
                and(
                  scopeCondition(lines, scope),
                  eq(lines.parentId, change.parentId),
                  inArray(lines.id, sql`(SELECT value FROM json_each(${JSON.stringify(change.ids)}))`),
                  onlyIf,
                ),
              );
      const touch = bindVersionTouch({ db, scope, stamp }, store, condition);
      const changes = { lines: { [change.action]: change.pairs } };
      return {
        table: store.spec.table,
        // The event and the lines while the document is at the expected version, then the bump that ends it.
        statements: [{ event: updatedEventOf(store, condition, { changes }) }, planStatement(statement), { statement: touch }],
        settle: (results) => rowsOf(touch, results.at(-1)).length > 0,
      };
    },
  };
}
