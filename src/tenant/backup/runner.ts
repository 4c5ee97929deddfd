/**
 * Runs a tenant/org's snapshot and restore jobs inside its coordinator (the Durable Object on Cloudflare), in steps of
 * at most `stepStatements` D1 statements, each invocation ending with an alarm for the next (as moves do: mover.ts),
 * so a large tenant/org stays within D1's per-invocation limits and a restart resumes where the last step ended.
 * One job at a time; a finished job's status is kept for the operator API. While a restore holds the tenant/org,
 * its writes wait here (`whenSettled`), like writes during a move.
 */
import type { TenantScope } from '../../db/client';
import { yieldToRequests } from '../../db/yield';
import type { CoordinatorState } from '../../coordinator/commands';
import { SerialQueue, waitForRelease } from '../../coordinator/queue';
import type { DatabaseSet } from '../d1/databases';
import type { TenantTable } from '../placement/tenant-tables';
import { describeJob } from './jobs';
import type { BackupJob, JobStatus, RestoreJob, RestorePlan, SnapshotJob } from './jobs';
import { abandonRestore, isAbandoning, releaseTarget } from './restore-failure';
import { runRestoreStep } from './restore-steps';
import { runSnapshotStep } from './snapshot-steps';
import type { BackupStore } from './store';
import { listRestoredTables } from './tables';

const JOB_KEY = 'backup:job';
const DONE_PREFIX = 'backup:done:';
const MAX_FAILURES = 3;
const RETRY_DELAY_MS = 1_000;
const STEP_MS = 5_000;

interface BackupHost {
  readonly databases: DatabaseSet;
  readonly tables: readonly TenantTable[];
  readonly state: CoordinatorState;
  readonly store: BackupStore;
  setAlarm(at: number): Promise<void>;
  now(): Date;
  readonly stepStatements: number;
}

/** A job started, or the one already running (a second job waits for the first). */
export type StartOutcome = { readonly started: JobStatus } | { readonly busy: JobStatus };

export class BackupRunner {
  private readonly queue = new SerialQueue();
  private readonly settled = new Set<() => void>();
  private readonly tables: readonly TenantTable[];

  constructor(private readonly host: BackupHost) {
    this.tables = listRestoredTables(host.tables);
  }

  private binding(name: string): D1Database {
    const binding = this.host.databases.tenants.get(name);
    if (!binding) throw new Error(`The tenant database ${name} is not bound.`);
    return binding;
  }

  /** The job under way, if any. */
  async findRunning(): Promise<BackupJob | null> {
    return (await this.host.state.get<BackupJob>(JOB_KEY)) ?? null;
  }

  /**
   * Keeps the job and sets the alarm that runs it. A restore holds its target's writes before answering (its first
   * step), so every write acknowledged after the restore was accepted is applied after it, never undone by it.
   */
  private start(job: BackupJob): Promise<StartOutcome> {
    return this.queue.run(async () => {
      const running = await this.findRunning();
      if (running) return { busy: describeJob(running) };
      await this.host.state.put(JOB_KEY, job);
      if (job.kind === 'restore') {
        await this.step(job);
        await this.host.state.put(JOB_KEY, job);
      }
      await this.host.setAlarm(this.host.now().getTime());
      return { started: describeJob(job) };
    });
  }

  startSnapshot(scope: TenantScope, database: string, id: string): Promise<StartOutcome> {
    const job: SnapshotJob = {
      ...this.newJob(scope, id),
      kind: 'snapshot',
      database,
      phase: 'start',
      startSeq: 0,
      sequenceBounds: {},
      after: 0,
      tables: [],
      seq: 0,
    };
    return this.start(job);
  }

  startRestore(scope: TenantScope, plan: RestorePlan, id: string): Promise<StartOutcome> {
    const job: RestoreJob = {
      ...this.newJob(scope, id),
      kind: 'restore',
      plan,
      phase: 'hold',
      method: null,
      head: 0,
      pruned: 0,
      changed: [],
      pending: null,
      cursor: 0,
      rows: 0,
    };
    return this.start(job);
  }

  private newJob(scope: TenantScope, id: string) {
    return {
      tenantKey: scope.tenantKey,
      orgKey: scope.orgKey,
      id,
      startedOn: this.host.now().toISOString(),
      state: 'running' as const,
      finishedOn: null,
      error: null,
      failures: 0,
      table: 0,
    };
  }

  /** A job's status: the one under way or a finished one. */
  async readJob(id: string): Promise<JobStatus | null> {
    const running = await this.findRunning();
    if (running?.id === id) return describeJob(running);
    const done = await this.host.state.get<BackupJob>(`${DONE_PREFIX}${id}`);
    return done ? describeJob(done) : null;
  }

  /** Resolves true when no restore holds the tenant/org's writes; false after `timeoutMs`. */
  async whenSettled(timeoutMs: number): Promise<boolean> {
    const running = await this.findRunning();
    if (running?.kind !== 'restore') return true;
    return waitForRelease(this.settled, timeoutMs);
  }

  runAlarm(): Promise<void> {
    return this.queue.run(() => this.runSteps());
  }

  private async step(job: BackupJob): Promise<number> {
    const now = () => this.host.now();
    if (job.kind === 'snapshot')
      return runSnapshotStep(job, { db: this.binding(job.database), tables: this.tables, store: this.host.store, now });
    const context = { source: this.binding(job.plan.source.database), target: this.binding(job.plan.targetDatabase), tables: this.tables };
    return runRestoreStep(job, { ...context, store: this.host.store, now });
  }

  private async runSteps(): Promise<void> {
    const job = await this.findRunning();
    const started = this.host.now().getTime();
    let spent = 0;
    // Within the statement budget, and a few seconds: requests to the coordinator wait while a step runs.
    while (job && job.state === 'running' && spent < this.host.stepStatements && this.host.now().getTime() - started < STEP_MS) {
      // The runtime's turn between steps: requests that came meanwhile are answered (src/db/yield.ts).
      await yieldToRequests();
      try {
        spent += await this.step(job);
        job.failures = 0;
      } catch (error) {
        job.failures += 1;
        const reason = error instanceof Error ? error.message : String(error);
        // A restore releasing its target keeps the plain words of why it stopped.
        if (job.kind !== 'restore' || !isAbandoning(job)) job.error = reason;
        console.error(
          JSON.stringify({
            level: 'error',
            message: `${job.kind} step failed`,
            tenantKey: job.tenantKey,
            orgKey: job.orgKey,
            error: reason,
          }),
        );
        if (job.failures >= MAX_FAILURES) await this.fail(job, error);
        else {
          await this.host.state.put(JOB_KEY, job);
          await this.host.setAlarm(this.host.now().getTime() + RETRY_DELAY_MS);
          return;
        }
      }
      if (job.state !== 'running') {
        await this.finish(job);
        return;
      }
      await this.host.state.put(JOB_KEY, job);
    }
    if (job?.state === 'running') await this.host.setAlarm(this.host.now().getTime());
  }

  /**
   * A job whose step failed MAX_FAILURES times in a row: a snapshot fails; a restore releases its target first
   * (restore-failure.ts), and fails at once, releasing what it can, when the release itself keeps failing.
   */
  private async fail(job: BackupJob, error: unknown): Promise<void> {
    if (job.kind === 'restore' && !isAbandoning(job)) return abandonRestore(job, this.tables, error);
    if (job.kind === 'restore')
      await releaseTarget(this.binding(job.plan.targetDatabase), job, this.host.now()).catch(() => {
        job.error = `${job.error ?? ''} Releasing ${job.tenantKey}/${job.orgKey} failed too: writes to it answer 503 until a restore into it ends.`;
      });
    Object.assign(job, { state: 'failed', finishedOn: this.host.now().toISOString() });
  }

  /** Keeps the finished job's status and releases the writes a restore held (a failed restore has released its target). */
  private async finish(job: BackupJob): Promise<void> {
    await this.host.state.put(`${DONE_PREFIX}${job.id}`, job);
    await this.host.state.delete(JOB_KEY);
    for (const release of [...this.settled]) release();
  }
}
