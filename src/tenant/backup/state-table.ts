/**
 * What the daily backup pass (cron.ts) keeps per tenant/org, so that one query per tenant database finds the
 * tenant/orgs due without listing R2: its last complete snapshot (updated when any snapshot finishes, the operator's
 * included), when the next retention has work, and the pass's own marks. A tenant table (a move copies it), never
 * restored (tables.ts): a restore does not undo the snapshots and retention it describes.
 */
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const tenantBackupState = sqliteTable(
  'tenant_backup_state',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    /** The newest complete snapshot: its id, when it was taken (ISO 8601), the history position it restores. */
    snapshotId: text('snapshot_id'),
    snapshotOn: text('snapshot_on'),
    snapshotSeq: integer('snapshot_seq'),
    /** When the pass last started a snapshot (it is not started again for a while, however long it runs). */
    startedOn: text('started_on'),
    /** The oldest snapshot taken after the last retention's start: retention has work once it is older than the retention. */
    expiresOn: text('expires_on'),
    /** When retention last ran (NULL: never; the pass then reads the snapshot list once to learn the state). */
    retainedOn: text('retained_on'),
  },
  (table) => [primaryKey({ columns: [table.tenantKey, table.orgKey] })],
);
