/**
 * What the operator API asks of snapshots and restores (src/admin/backup-routes.ts): shared by the Worker and Deno;
 * the jobs run in the tenant/org's coordinator (`BackupCoordinator`: the Durable Object, or Deno's in-process one).
 */
import type { TenantScope } from '../../db/client';
import { ApiError, recordNotFound } from '../../errors/api-error';
import type { DatabaseSet } from '../d1/databases';
import { findPlacement } from '../placement/directory';
import type { Placement } from '../placement/directory';
import type { TenantTable } from '../placement/tenant-tables';
import { runBackupPass } from './cron';
import type { BackupPassReport } from './cron';
import type { BackupCoordinator } from './coordinator';
import type { JobStatus, RestorePlan, SnapshotManifest } from './jobs';
import { makeSnapshotId } from './jobs';
import { findSnapshotMoment, listManifests, planMoment, readManifest, requireSnapshot, resolveTarget } from './plan';
import type { StartOutcome } from './runner';
import type { BackupStore } from './store';
import { listRestoredTables } from './tables';

/** A restore request: a moment or a snapshot of the tenant/org, into itself or an empty `target`. */
export interface RestoreRequest {
  readonly asOf?: string;
  readonly snapshot?: string;
  readonly target?: TenantScope;
  readonly actor: string;
}

interface SnapshotSummary extends TenantScope {
  readonly id: string;
  readonly takenOn: string;
  readonly seq: number;
  readonly startSeq: number;
  readonly rows: number;
  readonly database: string;
}

export interface BackupOperations {
  readonly retentionDays: number;
  snapshot(scope: TenantScope): Promise<JobStatus>;
  listSnapshots(scope: TenantScope): Promise<SnapshotSummary[]>;
  readJob(scope: TenantScope, id: string): Promise<JobStatus | null>;
  restore(scope: TenantScope, request: RestoreRequest): Promise<JobStatus>;
  /** One run of the daily pass (every cron run): snapshots and retention of at most a bounded number of due tenant/orgs (cron.ts). */
  runDailyPass(): Promise<BackupPassReport>;
}

interface BackupParts {
  readonly databases: DatabaseSet;
  readonly tables: readonly TenantTable[];
  readonly store: BackupStore;
  readonly coordinator: BackupCoordinator;
  readonly retentionDays: number;
  now(): Date;
}

function summarize(manifest: SnapshotManifest): SnapshotSummary {
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  const { id, tenantKey, orgKey, takenOn, seq, startSeq, database } = manifest;
  return { id, tenantKey, orgKey, takenOn, seq, startSeq, rows, database };
}

function answerStart(outcome: StartOutcome): JobStatus {
  if ('started' in outcome) return outcome.started;
  throw new ApiError(
    'Conflict',
    `A ${outcome.busy.kind} (${outcome.busy.id}) of ${outcome.busy.tenantKey}/${outcome.busy.orgKey} is under way.`,
  );
}

async function requirePlacement(parts: BackupParts, scope: TenantScope): Promise<Placement> {
  const placement = await findPlacement(parts.databases.directory, scope);
  if (!placement) throw recordNotFound(`Tenant/org ${scope.tenantKey}/${scope.orgKey}`, true);
  if (placement.moveTarget) throw new ApiError('Conflict', `${scope.tenantKey}/${scope.orgKey} is moving to ${placement.moveTarget}.`);
  return placement;
}

function requireDatabase(parts: BackupParts, name: string): D1Database {
  const db = parts.databases.tenants.get(name);
  if (!db) throw new Error(`${name} is not bound.`);
  return db;
}

async function planRestore(
  parts: BackupParts,
  scope: TenantScope,
  request: RestoreRequest,
): Promise<{ target: TenantScope; plan: RestorePlan }> {
  const placement = await requirePlacement(parts, scope);
  const db = requireDatabase(parts, placement.database);
  const restored = listRestoredTables(parts.tables);
  const moment =
    request.snapshot !== undefined
      ? await (async () => {
          const manifest = requireSnapshot(await readManifest(parts.store, scope, request.snapshot ?? ''), request.snapshot ?? '');
          return { seq: manifest.seq, snapshot: manifest, asOf: await findSnapshotMoment(db, manifest) };
        })()
      : { ...(await planMoment(db, parts.store, scope, request.asOf ?? '')), asOf: request.asOf ?? '' };
  const target = request.target ?? scope;
  const targetDatabase = await resolveTarget(parts.databases, restored, placement, target, parts.now());
  const source = { tenantKey: scope.tenantKey, orgKey: scope.orgKey, database: placement.database };
  return { target, plan: { source, targetDatabase, snapshot: moment.snapshot, seq: moment.seq, asOf: moment.asOf, actor: request.actor } };
}

export function buildBackupOperations(parts: BackupParts): BackupOperations {
  return {
    retentionDays: parts.retentionDays,
    async snapshot(scope) {
      const placement = await requirePlacement(parts, scope);
      return answerStart(await parts.coordinator.startSnapshot(scope, placement.database, makeSnapshotId(parts.now())));
    },
    async listSnapshots(scope) {
      return (await listManifests(parts.store, scope)).map(summarize);
    },
    readJob: (scope, id) => parts.coordinator.readJob(scope, id),
    async restore(scope, request) {
      const { target, plan } = await planRestore(parts, scope, request);
      return answerStart(await parts.coordinator.startRestore(target, plan, makeSnapshotId(parts.now())));
    },
    runDailyPass: () => runBackupPass(parts, parts.now()),
  };
}
