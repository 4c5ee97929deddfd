/** The snapshot and restore jobs a tenant/org's coordinator runs in steps (runner.ts), and what they keep. */
import type { TenantScope } from '../../db/client';

/** One object of a snapshot: a chunk of one table's rows as `[[key, image], ...]`. */
interface SnapshotChunk {
  readonly key: string;
  readonly rows: number;
  /** SHA-256 of the object's text, hex. */
  readonly sha256: string;
}

interface SnapshotTable {
  readonly name: string;
  rows: number;
  readonly chunks: SnapshotChunk[];
}

/** A snapshot's manifest (`<prefix>/manifest.json`, written last: a snapshot without one is incomplete). */
export interface SnapshotManifest extends TenantScope {
  readonly id: string;
  readonly database: string;
  readonly startedOn: string;
  readonly takenOn: string;
  /** The history position before the first row was read: the rows are exact for every key the history did not change after it. */
  readonly startSeq: number;
  /** The history position after the last row was read: the snapshot restores the state at this position. */
  readonly seq: number;
  /** Insertion-sequence tables: the highest id at the start (rows after it are in the history). */
  readonly sequenceBounds: Record<string, number>;
  readonly tables: SnapshotTable[];
}

type JobState = 'running' | 'done' | 'failed';

interface JobBase extends TenantScope {
  readonly id: string;
  readonly startedOn: string;
  state: JobState;
  finishedOn: string | null;
  error: string | null;
  failures: number;
  /** Position in the table order of the current phase. */
  table: number;
}

export interface SnapshotJob extends JobBase {
  readonly kind: 'snapshot';
  readonly database: string;
  phase: 'start' | 'copy' | 'finish';
  startSeq: number;
  sequenceBounds: Record<string, number>;
  /** Last rowid written of the current table. */
  after: number;
  tables: SnapshotTable[];
  seq: number;
}

/** What a restore rebuilds the target from: a snapshot (or nothing: the history from its start) plus a history range. */
export interface RestorePlan {
  readonly source: TenantScope & { readonly database: string };
  readonly targetDatabase: string;
  readonly snapshot: SnapshotManifest | null;
  /** The state restored: the source's history at this position, and its moment. */
  readonly seq: number;
  readonly asOf: string;
  /** Who asked (the operator token's subject): the `restored` event's actor. */
  readonly actor: string;
}

export interface RestoreJob extends JobBase {
  readonly kind: 'restore';
  readonly plan: RestorePlan;
  /** `undo` and `unhold`: a failed restore releasing its target (restore-failure.ts). */
  phase: 'hold' | 'drop' | 'revert' | 'recover' | 'clear' | 'load' | 'replay' | 'release' | 'undo' | 'unhold';
  /**
   * Decided at the hold (null before): `changes` writes only the rows the history changed after the position (a
   * restore in place, revert-steps.ts); `rebuild` deletes every row and loads the state (restore-steps.ts).
   */
  method: RestoreMethod | null;
  /** `changes`: the tenant/org's last position at the hold, its pruned position, the tables changed since the position. */
  head: number;
  pruned: number;
  changed: string[];
  /** Recover: rows of the current table still to take from the snapshot (null: not counted yet). */
  pending: number | null;
  /** Load and recover: the next chunk of the current table; replay, drop and revert: the last position applied. */
  cursor: number;
  /** Rows written: every row of a rebuild; the rows deleted, reverted and recovered by a restore in place. */
  rows: number;
}

type RestoreMethod = 'changes' | 'rebuild';

export type BackupJob = SnapshotJob | RestoreJob;

/** A job's status, as the operator API answers it. */
export interface JobStatus extends TenantScope {
  readonly id: string;
  readonly kind: 'snapshot' | 'restore';
  readonly state: JobState;
  readonly startedOn: string;
  readonly finishedOn: string | null;
  readonly error: string | null;
  /** Rows written so far (snapshot) or restored. */
  readonly rows: number;
  /** Restores: the moment restored, its position, where from, and how (null until decided; snapshots: null). */
  readonly asOf: string | null;
  readonly seq: number | null;
  readonly source: TenantScope | null;
  readonly snapshot: string | null;
  readonly method: RestoreMethod | null;
}

export function describeJob(job: BackupJob): JobStatus {
  const base = {
    id: job.id,
    tenantKey: job.tenantKey,
    orgKey: job.orgKey,
    kind: job.kind,
    state: job.state,
    startedOn: job.startedOn,
    finishedOn: job.finishedOn,
    error: job.error,
  };
  if (job.kind === 'snapshot') {
    const rows = job.tables.reduce((sum, table) => sum + table.rows, 0);
    return { ...base, rows, asOf: null, seq: job.state === 'done' ? job.seq : null, source: null, snapshot: job.id, method: null };
  }
  const { source, snapshot, seq, asOf } = job.plan;
  return {
    ...base,
    rows: job.rows,
    asOf,
    seq,
    source: { tenantKey: source.tenantKey, orgKey: source.orgKey },
    snapshot: snapshot?.id ?? null,
    // A job kept before restores in place existed has no method: it rebuilt.
    method: job.method ?? (job.phase === 'hold' ? null : 'rebuild'),
  };
}

/** The store's folder of a tenant/org's snapshots. */
export function formatSnapshotPrefix(scope: TenantScope): string {
  return `snapshots/${encodeURIComponent(scope.tenantKey)}/${encodeURIComponent(scope.orgKey)}/`;
}

/** A snapshot id: sortable by time (`20261126T071500123Z-<random>`). */
export function makeSnapshotId(now: Date): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${crypto.randomUUID().slice(0, 8)}`;
}
