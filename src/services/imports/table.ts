/** D1 tables of the import data infos service (hand-declared: imports are not a generic entity). */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** One row per import; `key` is the next integer per tenant/org. */
export const importDataInfos = sqliteTable(
  'import_data_infos',
  {
    id: text('id').primaryKey(),
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    key: integer('key').notNull(),
    importDataTemplate: text('import_data_template').notNull(),
    originalFileName: text('original_file_name'),
    cloudFileName: text('cloud_file_name'),
    importDataState: integer('import_data_state').notNull(),
    importName: text('import_name'),
    detailLog: text('detail_log'),
    error: text('error'),
    lastProgressUpdateOn: text('last_progress_update_on'),
    drillDownOperation: text('drill_down_operation'),
    reverted: integer('reverted', { mode: 'boolean' }).notNull().default(false),
    /** File imports (POST /files) only; null for imports a third party performs and reports. */
    fileFormat: text('file_format'),
    /** create | upsert */
    importMode: text('import_mode'),
    dryRun: integer('dry_run', { mode: 'boolean' }),
    failOnErrors: integer('fail_on_errors', { mode: 'boolean' }),
    rowsRead: integer('rows_read'),
    rowsCreated: integer('rows_created'),
    rowsUpdated: integer('rows_updated'),
    rowsFailed: integer('rows_failed'),
    /**
     * The undo of what a file import wrote (a revert, a cancel, failOnErrors, a Fatal end): 1 Undoing (its durable
     * steps run), 2 Undone; null while nothing was asked to be undone.
     */
    undoState: integer('undo_state'),
    /** Records the undo deleted or gave their values back so far. */
    rowsUndone: integer('rows_undone'),
    /** A revert's outcome once undone: the RevertImport answer (ReturnMessageType and message). */
    revertMessageType: integer('revert_message_type'),
    revertMessage: text('revert_message'),
    version: integer('version').notNull().default(1),
    createdOn: text('created_on').notNull(),
    createdBy: text('created_by').notNull(),
    modifiedOn: text('modified_on').notNull(),
    modifiedBy: text('modified_by').notNull(),
  },
  (table) => [
    uniqueIndex('import_data_infos_key_uq').on(table.tenantKey, table.orgKey, table.key),
    index('import_data_infos_template_idx').on(table.tenantKey, table.orgKey, table.importDataTemplate, table.key),
  ],
);

/**
 * Append-only history: one row per accepted change of an import, written in the same D1 transaction as the
 * change. `seq` equals the import's `version` after the change; `command_id` makes a replayed coordinator
 * command a no-op.
 */
export const importDataInfoChanges = sqliteTable(
  'import_data_info_changes',
  {
    id: text('id').primaryKey(),
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    importId: text('import_id').notNull(),
    seq: integer('seq').notNull(),
    /** register | change | expire | revert | undo */
    kind: text('kind').notNull(),
    fromState: integer('from_state'),
    toState: integer('to_state').notNull(),
    commandId: text('command_id').notNull(),
    requestId: text('request_id'),
    changedOn: text('changed_on').notNull(),
    changedBy: text('changed_by').notNull(),
  },
  (table) => [
    uniqueIndex('import_data_info_changes_seq_uq').on(table.tenantKey, table.orgKey, table.importId, table.seq),
    uniqueIndex('import_data_info_changes_command_uq').on(table.tenantKey, table.orgKey, table.commandId),
  ],
);

export type ImportRow = typeof importDataInfos.$inferSelect;
export type ImportChangeRow = typeof importDataInfoChanges.$inferSelect;

/**
 * The chunk ledger of file imports: one row per chunk of rows written (in the same D1 batch as the chunk's records and
 * events). Its primary key makes a retried or resumed chunk fail its batch instead of writing twice; what it lists
 * (ids created, pre-import values of updated records, members added) is what cancel, failOnErrors and revert undo.
 */
export const importChunks = sqliteTable(
  'import_chunks',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    importId: text('import_id').notNull(),
    chunkIndex: integer('chunk_index').notNull(),
    rowsRead: integer('rows_read').notNull(),
    rowsCreated: integer('rows_created').notNull(),
    rowsUpdated: integer('rows_updated').notNull(),
    rowsFailed: integer('rows_failed').notNull(),
    /** JSON array of the ids of records the chunk created. */
    createdIds: text('created_ids').notNull(),
    /** JSON array of `{ id, version, before, members }`: updated records' pre-import values, members added, version after. */
    updated: text('updated').notNull(),
    /** JSON array of the failed rows: `{ row, values, errors: [{ path, message }] }`. */
    failures: text('failures').notNull(),
    /**
     * Where the next chunk starts in the file: the byte offset after this chunk's last record (CSV, NDJSON), or -1 where
     * the format cannot be read from an offset (JSON array, xlsx: the next chunk reads past the records before it).
     */
    endOffset: integer('end_offset').notNull(),
    /** The file row number of this chunk's last record (the next chunk's rows are numbered on from it). */
    endRow: integer('end_row').notNull(),
    /** Set when the chunk's writes were undone (cancel, failOnErrors, revert). */
    undoneOn: text('undone_on'),
    /**
     * What its undo did, written right after it (JSON `{deleted, restored, kept}`: counts, and the records left as
     * changed since, named): a revert's outcome is the sum of its chunks', whatever steps a restart split it into.
     */
    undoOutcome: text('undo_outcome'),
    createdOn: text('created_on').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantKey, table.orgKey, table.importId, table.chunkIndex] })],
);

export type ImportChunkRow = typeof importChunks.$inferSelect;
