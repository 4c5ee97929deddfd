/**
 * The daily backup pass, in bounded runs (src/jobs/backups.ts runs one per cron invocation, every 15 minutes): one
 * query per tenant database (state.ts) finds the tenant/orgs due, and at most `limit` of them, the most overdue
 * first, are handled per run; the rest, and whatever a run left half done, are the next runs' work. Per tenant/org:
 * retention (retention.ts) when it has work (the snapshot list read from the store then, and only then), a bounded
 * share of history prunes, and a snapshot when its history moved since its last snapshot and that one is a day old.
 */
import type { TenantScope } from '../../db/client';
import type { DatabaseSet } from '../d1/databases';
import { makeSnapshotId } from './jobs';
import type { BackupCoordinator } from './coordinator';
import { listManifests } from './plan';
import { applyRetention, pruneHistory } from './retention';
import type { PruneBudget } from './retention';
import { countRunningSnapshots, listDueScopes, recordRetention, recordSnapshotStart } from './state';
import type { DueScope } from './state';
import type { BackupStore } from './store';

const DAY_MS = 86_400_000;
/** Tenant/orgs handled per run: 96 runs a day cover 9,600 due ones (docs/storage.md, "the daily pass"). */
const PASS_LIMIT = 100;
/** History prune statements (500 entries each) per run, over every tenant/org of the run. */
const PRUNE_STATEMENTS = 40;
/**
 * Snapshots of one tenant database running at once, at most: a run starts others only as these end. A snapshot reads
 * its tenant/org's rows from the database all its tenant/orgs share (and, locally, one runtime runs every job): a run
 * that started a hundred at once left the next run's every statement queued behind theirs (GET /__scheduled on 140
 * tenant/orgs: no answer within 300 s).
 */
const MAX_RUNNING_SNAPSHOTS = 4;

export interface BackupPassParts {
  readonly databases: DatabaseSet;
  readonly store: BackupStore;
  readonly coordinator: BackupCoordinator;
  readonly retentionDays: number;
  /** Tenant/orgs per run (PASS_LIMIT unless told). */
  readonly limit?: number;
  /** History prune statements per run (PRUNE_STATEMENTS unless told). */
  readonly pruneStatements?: number;
  /** Snapshots running at once per tenant database (MAX_RUNNING_SNAPSHOTS unless told). */
  readonly runningSnapshots?: number;
}

/** What a run did: tenant/orgs handled, snapshots started, snapshots deleted, history entries pruned. */
export interface BackupPassReport {
  handled: number;
  snapshots: number;
  deleted: number;
  pruned: number;
}

/** The due tenant/orgs of every tenant database, the most overdue `limit` of them. */
async function findDue(parts: BackupPassParts, now: Date, limit: number): Promise<DueScope[]> {
  const lists = await Promise.all(
    parts.databases.names.map((name) => {
      const db = parts.databases.tenants.get(name);
      return db ? listDueScopes(db, name, now, parts.retentionDays, limit) : [];
    }),
  );
  return lists
    .flat()
    .sort((a, b) => a.dueAt - b.dueAt || (a.tenantKey < b.tenantKey ? -1 : a.tenantKey > b.tenantKey ? 1 : a.orgKey < b.orgKey ? -1 : 1))
    .slice(0, limit);
}

/** Retention of one tenant/org, its state learnt again from its snapshot list; answers whether a snapshot is due. */
async function retain(parts: BackupPassParts, db: D1Database, due: DueScope, now: Date, report: BackupPassReport): Promise<boolean> {
  const cutoff = new Date(now.getTime() - parts.retentionDays * DAY_MS).toISOString();
  const manifests = await listManifests(parts.store, due);
  const { kept, deleted } = await applyRetention(db, parts.store, due, manifests, { cutoff, now });
  await recordRetention(db, due, kept, cutoff, now);
  report.deleted += deleted;
  const last = kept[kept.length - 1];
  return due.position > (last?.seq ?? 0) && (!last || Date.parse(last.takenOn) <= now.getTime() - DAY_MS);
}

async function startSnapshot(parts: BackupPassParts, db: D1Database, due: DueScope, now: Date): Promise<boolean> {
  const scope: TenantScope = { tenantKey: due.tenantKey, orgKey: due.orgKey };
  const outcome = await parts.coordinator.startSnapshot(scope, due.database, makeSnapshotId(now));
  // Started, or another job of the tenant/org is under way: either way, not asked again for a while (state.ts).
  await recordSnapshotStart(db, scope, now);
  return 'started' in outcome;
}

/** Snapshots each tenant database may still start in this run (its cap less those running). */
async function countSnapshotSlots(parts: BackupPassParts, now: Date): Promise<Map<string, number>> {
  const cap = parts.runningSnapshots ?? MAX_RUNNING_SNAPSHOTS;
  const slots = new Map<string, number>();
  for (const name of parts.databases.names) {
    const db = parts.databases.tenants.get(name);
    if (db) slots.set(name, Math.max(0, cap - (await countRunningSnapshots(db, now))));
  }
  return slots;
}

async function handleDue(
  parts: BackupPassParts,
  due: DueScope,
  now: Date,
  budget: PruneBudget,
  report: BackupPassReport,
  slots: Map<string, number>,
) {
  const db = parts.databases.tenants.get(due.database);
  if (!db) return;
  // The list read by retention knows better than the state when that was never learnt (retained_on NULL).
  const listed = due.retentionDue ? await retain(parts, db, due, now, report) : true;
  const snapshotDue = listed && due.snapshotDue;
  if (due.retentionDue || due.pruneLeft) report.pruned += await pruneHistory(db, due, budget);
  // A snapshot due waits for a free slot of its database (it stays due: a later run starts it).
  const free = slots.get(due.database) ?? 0;
  if (snapshotDue && due.position > 0 && free > 0 && (await startSnapshot(parts, db, due, now))) {
    report.snapshots += 1;
    slots.set(due.database, free - 1);
  }
  report.handled += 1;
}

/** One run of the pass: at most `limit` due tenant/orgs; one that fails is logged and does not stop the others. */
export async function runBackupPass(parts: BackupPassParts, now: Date): Promise<BackupPassReport> {
  const report: BackupPassReport = { handled: 0, snapshots: 0, deleted: 0, pruned: 0 };
  const budget: PruneBudget = { statements: parts.pruneStatements ?? PRUNE_STATEMENTS };
  const slots = await countSnapshotSlots(parts, now);
  for (const due of await findDue(parts, now, parts.limit ?? PASS_LIMIT)) {
    try {
      await handleDue(parts, due, now, budget, report, slots);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(JSON.stringify({ level: 'error', job: 'backups', tenantKey: due.tenantKey, orgKey: due.orgKey, error: message }));
    }
  }
  return report;
}
