/**
 * The event log (outbox) of every tenant/org: one row per acknowledged change, written in the same D1 batch as the
 * change itself (`outbox.ts` builds the statements). `seq` is the tenant/org's commit order (1, 2, 3, ...); it is an
 * ordinary column of the primary key, so a move copies it as is and feed cursors stay valid on the new database.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** `restored`: the whole tenant/org was restored to an earlier moment (resource `tenant`; src/tenant/backup/). */
export const CHANGE_TYPES = ['created', 'updated', 'deleted', 'restored'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export const changeEvents = sqliteTable(
  'change_events',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    /** Commit order within the tenant/org: the highest seq (or the pruned one) + 1 inside the writing transaction. */
    seq: integer('seq').notNull(),
    /** GUID of the event (the `webhook-id` of its deliveries' items). */
    id: text('id').notNull(),
    /** Service prefix of the record (`operations/emailTemplates`, `referenceData/companies`, ...). */
    resource: text('resource').notNull(),
    /** created | updated | deleted */
    changeType: text('change_type').$type<ChangeType>().notNull(),
    recordId: text('record_id').notNull(),
    recordKey: text('record_key').notNull(),
    /** The record's version after the change (a deletion: its last version + 1). */
    version: integer('version').notNull(),
    occurredOn: text('occurred_on').notNull(),
    actor: text('actor').notNull(),
    /** JSON object: what changed (attributes, a state transition, recalculated figures), or NULL. */
    changes: text('changes'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantKey, table.orgKey, table.seq] }),
    // The retention job's scan: old events across every tenant/org of a database.
    index('change_events_occurred_idx').on(table.occurredOn, table.tenantKey, table.orgKey),
  ],
);

/**
 * Per tenant/org: the highest `seq` the retention job deleted. A feed cursor below it is older than retention (410),
 * and the next event continues after it even when every event was deleted.
 */
export const changeEventRetention = sqliteTable(
  'change_event_retention',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    prunedSeq: integer('pruned_seq').notNull(),
    prunedOn: text('pruned_on').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantKey, table.orgKey] })],
);

export type ChangeEventRow = typeof changeEvents.$inferSelect;
