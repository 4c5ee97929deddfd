/** valibot schemas of the snapshot and restore answers of the operator API (src/admin/backup-routes.ts). */
import * as v from 'valibot';
import { DATE_TIME, INTEGER } from '../openapi/values';

const SCOPE = { tenantKey: v.string(), orgKey: v.string() };

/** A snapshot or restore job (202 answers and their status resources). */
export const JobAnswer = v.strictObject({
  ...SCOPE,
  id: v.string(),
  kind: v.picklist(['snapshot', 'restore']),
  state: v.picklist(['running', 'done', 'failed']),
  startedOn: DATE_TIME,
  finishedOn: v.nullable(DATE_TIME),
  error: v.nullable(v.string()),
  rows: INTEGER,
  asOf: v.nullable(DATE_TIME),
  seq: v.nullable(INTEGER),
  source: v.nullable(v.strictObject(SCOPE)),
  snapshot: v.nullable(v.string()),
  method: v.nullable(v.picklist(['changes', 'rebuild'])),
});

export const SnapshotListAnswer = v.strictObject({
  items: v.array(
    v.strictObject({
      ...SCOPE,
      id: v.string(),
      takenOn: DATE_TIME,
      seq: INTEGER,
      startSeq: INTEGER,
      rows: INTEGER,
      database: v.string(),
    }),
  ),
});
