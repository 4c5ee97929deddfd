/**
 * A snapshot, step by step: the history position before the first read (and the insertion-sequence bounds), every
 * restored table's rows of the tenant/org in chunks (one store object each, with its SHA-256), then the position after
 * the last read, the manifest and the tenant/org's backup state (state.ts). Writes continue meanwhile: a row the history changed after `startSeq` is taken from
 * the history at restore time, so the snapshot restores exactly the state at `seq`.
 */
import type { TenantTable } from '../placement/tenant-tables';
import { readPositions, readRowPairs, readSnapshotStart } from './history';
import { formatSnapshotPrefix } from './jobs';
import type { SnapshotJob, SnapshotManifest } from './jobs';
import { recordSnapshot } from './state';
import type { BackupStore } from './store';

interface SnapshotContext {
  readonly db: D1Database;
  readonly tables: readonly TenantTable[];
  readonly store: BackupStore;
  now(): Date;
}

/** Objects of this many bytes at most (one bound parameter of a restore's insert). */
const CHUNK_BYTES = 400_000;

const encoder = new TextEncoder();

export async function hashText(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function formatSnapshotFolder(job: { tenantKey: string; orgKey: string; id: string }): string {
  return `${formatSnapshotPrefix(job)}${job.id}/`;
}

/** Splits rows (JSON texts) into arrays of at most CHUNK_BYTES (a row larger than that is an object of its own). */
function groupPairs(pairs: readonly string[]): string[][] {
  const groups: string[][] = [];
  let bytes = 0;
  for (const pair of pairs) {
    const size = encoder.encode(pair).length + 1;
    const current = groups[groups.length - 1];
    if (current && bytes + size <= CHUNK_BYTES) {
      current.push(pair);
      bytes += size;
    } else {
      groups.push([pair]);
      bytes = size;
    }
  }
  return groups;
}

/** Copies the next rows of the current table into store objects; answers the statements run. */
async function copyRows(job: SnapshotJob, context: SnapshotContext): Promise<number> {
  const table = context.tables[job.table];
  if (!table) {
    job.phase = 'finish';
    return 0;
  }
  const rows = await readRowPairs(context.db, job, table, job.after, job.sequenceBounds[table.name]);
  const entry = job.tables[job.table] ?? { name: table.name, rows: 0, chunks: [] };
  job.tables[job.table] = entry;
  if (rows.length === 0) {
    Object.assign(job, { table: job.table + 1, after: 0 });
    return 1;
  }
  for (const group of groupPairs(rows.map((row) => row.pair))) {
    const text = `[${group.join(',')}]`;
    const key = `${formatSnapshotFolder(job)}${String(job.table).padStart(3, '0')}-${table.name}/${String(entry.chunks.length).padStart(6, '0')}.json`;
    await context.store.put(key, text);
    entry.chunks.push({ key, rows: group.length, sha256: await hashText(text) });
    entry.rows += group.length;
  }
  job.after = rows[rows.length - 1]?.rowid ?? job.after;
  return 1;
}

/** One step of a snapshot; answers the D1 statements it ran. */
export async function runSnapshotStep(job: SnapshotJob, context: SnapshotContext): Promise<number> {
  switch (job.phase) {
    case 'start': {
      const start = await readSnapshotStart(context.db, job, context.tables);
      Object.assign(job, { startSeq: start.last, sequenceBounds: start.bounds, phase: 'copy' });
      return 1;
    }
    case 'copy':
      return copyRows(job, context);
    case 'finish': {
      job.seq = (await readPositions(context.db, job)).last;
      const manifest: SnapshotManifest = {
        id: job.id,
        tenantKey: job.tenantKey,
        orgKey: job.orgKey,
        database: job.database,
        startedOn: job.startedOn,
        takenOn: context.now().toISOString(),
        startSeq: job.startSeq,
        seq: job.seq,
        sequenceBounds: job.sequenceBounds,
        tables: job.tables,
      };
      await context.store.put(`${formatSnapshotFolder(job)}manifest.json`, JSON.stringify(manifest));
      // The daily pass's state (state.ts): this snapshot, the operator's too, is the tenant/org's last one.
      await recordSnapshot(context.db, manifest);
      job.state = 'done';
      job.finishedOn = manifest.takenOn;
      return 2;
    }
  }
}
