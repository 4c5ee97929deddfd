/**
 * The row-level history of every tenant/org (docs/storage.md, "Point-in-time restore"): generated AFTER triggers on
 * every restored tenant table (src/resources/triggers/history.ts) append one entry per inserted, updated or deleted
 * row, in the same statement as the write, whatever code path wrote it. Both tables hold tenant/org rows, so a move
 * copies them with the rest of the tenant/org.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** One entry per written row: its key and its full after-image (NULL for a delete; the before-image is the previous entry). */
export const tenantHistory = sqliteTable(
  'tenant_history',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    /** The tenant/org's history position: 1, 2, 3, ... in commit order (kept across moves and pruning). */
    seq: integer('seq').notNull(),
    /** The database clock at the write (ISO 8601, milliseconds). */
    recordedOn: text('recorded_on').notNull(),
    tableName: text('table_name').notNull(),
    /** insert | update | delete */
    operation: text('operation').notNull(),
    /** JSON array of the row's primary key values. */
    rowKey: text('row_key').notNull(),
    /** JSON object of every column of the row after the write (insertion-sequence ids left out); NULL: deleted. */
    rowImage: text('row_image'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantKey, table.orgKey, table.seq] }),
    // A row's entries (the last one at a position; whether a row changed in a range).
    index('tenant_history_row_idx').on(table.tenantKey, table.orgKey, table.tableName, table.rowKey, table.seq),
    // A table's entries in position order (a restore's replay, table by table).
    index('tenant_history_table_idx').on(table.tenantKey, table.orgKey, table.tableName, table.seq),
    // A moment's position.
    index('tenant_history_recorded_idx').on(table.tenantKey, table.orgKey, table.recordedOn),
    // A table's last rebase up to a position (restores): only rebase entries, so a probe, not a walk of the table's history.
    index('tenant_history_rebase_idx')
      .on(table.tenantKey, table.orgKey, table.tableName, table.seq)
      .where(sql`operation = 'rebase'`),
  ],
);

/** Per tenant/org: the highest position pruned, so that positions keep counting after every entry was pruned. */
export const tenantHistoryPruned = sqliteTable(
  'tenant_history_pruned',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    prunedSeq: integer('pruned_seq').notNull(),
    prunedOn: text('pruned_on').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantKey, table.orgKey] })],
);
