/** D1 tables of the import data infos service (hand-declared: imports are not a generic entity). */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

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
    /** register | change | expire | revert */
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
