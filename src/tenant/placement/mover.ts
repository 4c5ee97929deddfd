/**
 * Moves one tenant/org from its database to another, online, inside the tenant/org's coordinator (the Durable
 * Object on Cloudflare). The plan is kept in the coordinator's storage and run in steps of at most
 * `stepStatements` D1 statements; each step ends by setting an alarm that runs the next one, so a large tenant/org
 * never exceeds D1's 1,000 queries per invocation and a restart resumes where the last step ended.
 *
 * 1. prepare: the directory notes the move; the target's residency becomes `incoming`; the source's becomes
 *    `moving` (one statement: D1 runs statements one at a time, so every write committed before it is in the copy,
 *    and every write after it is refused by the write guard and waits).
 * 2. clean: rows of the tenant/org the target may hold from an earlier, abandoned move are deleted.
 * 3. copy: every tenant table, parents first, in rowid order, chunk by chunk (rows identical: ids, versions,
 *    timestamps; insertion-sequence ids are renumbered in order, see tenant-tables.ts).
 * 4. verify: per table, row count and the total length of every value's literal must match on both sides.
 * 5. switch: the history of the renumbered insertion-sequence tables is rebased (history-rebase.ts); target
 *    `active`; the directory points at the target (epoch + 1, movedOn); source `moved`. Waiting writes are released
 *    here and run on the target.
 * 6. delete: the source's rows are deleted in chunks; the `moved` residency row stays as a tombstone, so an isolate
 *    whose cache still names the source is sent to the directory by the guard.
 * A failure before the switch is retried (3 attempts per step), then rolled back: target rows deleted, target
 * `moved`, source `active` again.
 */
import type { TenantScope } from '../../db/client';
import { yieldToRequests } from '../../db/yield';
import type { CoordinatorState } from '../../coordinator/commands';
import { SerialQueue, waitForRelease } from '../../coordinator/queue';
import type { DatabaseSet } from '../d1/databases';
import { rememberPlacement } from './cache';
import { copyChunk, deleteChunk, fingerprintRows } from './copy';
import type { ChunkOutcome } from './copy';
import { clearMove, ensureResidency, findPlacement, markMoveStarted, switchPlacement } from './directory';
import { buildHistoryRebase } from './history-rebase';
import type { Placement } from './directory';
import type { ResidencyState } from './residency-table';
import type { TenantTable } from './tenant-tables';

const STATE_KEY = 'placement:move';
const MAX_FAILURES = 3;
const RETRY_DELAY_MS = 1_000;

type Phase = 'prepare' | 'clean' | 'copy' | 'verify' | 'switch' | 'delete' | 'rollback';

interface MoveState extends TenantScope {
  readonly source: string;
  readonly target: string;
  readonly startedOn: string;
  phase: Phase;
  /** Position in the phase's table order (copy: parents first; clean, delete, rollback: children first). */
  table: number;
  /** Copy cursor: the last rowid copied of the current table. */
  after: number;
  copied: number;
  failures: number;
  error: string | null;
  placement: Placement | null;
}

/** What a move request answers: the placement once done, the move already under way to another target, or a rollback. */
export type MoveOutcome =
  | { readonly outcome: 'moved'; readonly placement: Placement }
  | { readonly outcome: 'conflict'; readonly target: string }
  | { readonly outcome: 'failed'; readonly error: string };

interface MoverHost {
  readonly databases: DatabaseSet;
  /** Every tenant/org table, parents first (src/tenant-tables.ts). */
  readonly tables: readonly TenantTable[];
  readonly state: CoordinatorState;
  /** Runs `runAlarm` at `at` (ms since the epoch), persistently (a Durable Object alarm). */
  setAlarm(at: number): Promise<void>;
  now(): Date;
  /** D1 statements per step (per invocation). */
  readonly stepStatements: number;
}

async function setResidency(db: D1Database, scope: TenantScope, state: ResidencyState, now: Date): Promise<void> {
  await db
    .prepare(
      'INSERT INTO tenant_residency (tenant_key, org_key, state, changed_on) VALUES (?, ?, ?, ?) ON CONFLICT (tenant_key, org_key) DO UPDATE SET state = excluded.state, changed_on = excluded.changed_on',
    )
    .bind(scope.tenantKey, scope.orgKey, state, now.toISOString())
    .run();
}

export class TenantMover {
  private readonly queue = new SerialQueue();
  /** Writes waiting for the switch (or the rollback). */
  private readonly settled = new Set<() => void>();
  /** Move requests waiting for the end of the move. */
  private readonly finished = new Set<(outcome: MoveOutcome) => void>();
  /** How many times waiting writes were released (a switch or a rollback). */
  private releases = 0;

  constructor(private readonly host: MoverHost) {}

  private binding(name: string): D1Database {
    const binding = this.host.databases.tenants.get(name);
    if (!binding) throw new Error(`The tenant database ${name} is not bound.`);
    return binding;
  }

  private waitForEnd(): Promise<MoveOutcome> {
    return new Promise((resolve) => this.finished.add(resolve));
  }

  private finish(outcome: MoveOutcome): void {
    for (const resolve of [...this.finished]) resolve(outcome);
    this.finished.clear();
  }

  /** Moves the tenant/org to `target` and answers when the move is done (old copy deleted). */
  async move(scope: TenantScope, target: string): Promise<MoveOutcome> {
    // Either an answer now, or (move started or joined) a wait registered before any step can finish.
    const answer = await this.queue.run(async (): Promise<{ now: MoveOutcome } | { later: Promise<MoveOutcome> }> => {
      const running = await this.host.state.get<MoveState>(STATE_KEY);
      if (running)
        return running.target === target ? { later: this.waitForEnd() } : { now: { outcome: 'conflict', target: running.target } };
      const placement = await findPlacement(this.host.databases.directory, scope);
      if (!placement) throw new Error(`${scope.tenantKey}/${scope.orgKey} has no placement.`);
      if (placement.database === target) return { now: { outcome: 'moved', placement } };
      const later = this.waitForEnd();
      await this.prepare(placement, target);
      return { later };
    });
    return 'now' in answer ? answer.now : answer.later;
  }

  /** Persists the plan and lets the alarm run it (every D1 change of a move happens in steps, retried or rolled back). */
  private async prepare(placement: Placement, target: string): Promise<void> {
    const now = this.host.now();
    const state: MoveState = {
      tenantKey: placement.tenantKey,
      orgKey: placement.orgKey,
      source: placement.database,
      target,
      startedOn: now.toISOString(),
      phase: 'prepare',
      table: 0,
      after: 0,
      copied: 0,
      failures: 0,
      error: null,
      placement: null,
    };
    await this.host.state.put(STATE_KEY, state);
    await this.host.setAlarm(now.getTime());
  }

  /** Resolves true when no move is copying (none under way, or it switched or rolled back); false after `timeoutMs`. */
  async whenSettled(timeoutMs: number): Promise<boolean> {
    const seen = this.releases;
    const state = await this.host.state.get<MoveState>(STATE_KEY);
    if (!state || state.phase === 'delete' || this.releases !== seen) return true;
    return waitForRelease(this.settled, timeoutMs);
  }

  private releaseWaitingWrites(): void {
    this.releases += 1;
    for (const release of [...this.settled]) release();
  }

  /** The alarm: runs steps of the move under way until the step's statement budget is spent. */
  runAlarm(): Promise<void> {
    return this.queue.run(() => this.runSteps());
  }

  private async runSteps(): Promise<void> {
    let state: MoveState | null = (await this.host.state.get<MoveState>(STATE_KEY)) ?? null;
    let spent = 0;
    while (state && spent < this.host.stepStatements) {
      // The runtime's turn between steps: requests that came meanwhile are answered (src/db/yield.ts).
      await yieldToRequests();
      try {
        spent += await this.step(state);
        state.failures = 0;
      } catch (error) {
        state.failures += 1;
        state.error = error instanceof Error ? error.message : String(error);
        console.error(
          JSON.stringify({
            level: 'error',
            message: 'move step failed',
            tenantKey: state.tenantKey,
            orgKey: state.orgKey,
            phase: state.phase,
            error: state.error,
          }),
        );
        if (state.failures >= MAX_FAILURES && state.phase !== 'delete' && state.phase !== 'rollback') {
          Object.assign(state, { phase: 'rollback', table: 0, failures: 0 });
        }
        await this.host.state.put(STATE_KEY, state);
        await this.host.setAlarm(this.host.now().getTime() + RETRY_DELAY_MS);
        return;
      }
      state = await this.finishStep(state);
    }
    if (state) await this.host.setAlarm(this.host.now().getTime());
  }

  /** Persists the state, or ends the move; answers the state to continue with (null: done). */
  private async finishStep(state: MoveState): Promise<MoveState | null> {
    if (state.phase === 'delete' && state.table >= this.host.tables.length) {
      await this.host.state.delete(STATE_KEY);
      if (state.placement) this.finish({ outcome: 'moved', placement: state.placement });
      return null;
    }
    if (state.phase === 'rollback' && state.table >= this.host.tables.length) {
      await this.finishRollback(state);
      return null;
    }
    await this.host.state.put(STATE_KEY, state);
    return state;
  }

  /** One chunk of the current phase; answers the statements it ran. */
  private async step(state: MoveState): Promise<number> {
    const source = this.binding(state.source);
    const target = this.binding(state.target);
    const table = (state.phase === 'copy' ? this.host.tables : [...this.host.tables].reverse())[state.table];
    const next = (phase: Phase) => Object.assign(state, { phase, table: 0, after: 0 });
    switch (state.phase) {
      case 'prepare': {
        const now = this.host.now();
        await markMoveStarted(this.host.databases.directory, state, state.target, now);
        await setResidency(target, state, 'incoming', now);
        await ensureResidency(source, state, now);
        await setResidency(source, state, 'moving', now);
        next('clean');
        return 4;
      }
      case 'clean':
      case 'delete':
      case 'rollback': {
        if (!table) return state.phase === 'clean' ? (next('copy'), 0) : 0;
        const outcome: ChunkOutcome = await deleteChunk(state.phase === 'delete' ? source : target, table, state);
        if (outcome.rows === 0) state.table += 1;
        return outcome.statements;
      }
      case 'copy': {
        if (!table) return (next('verify'), 0);
        const outcome = await copyChunk(source, target, table, state, state.after);
        if (outcome.rows === 0) Object.assign(state, { table: state.table + 1, after: 0 });
        else Object.assign(state, { after: outcome.last, copied: state.copied + outcome.rows });
        return outcome.statements;
      }
      case 'verify': {
        const [before, after] = await Promise.all([
          fingerprintRows(source, this.host.tables, state),
          fingerprintRows(target, this.host.tables, state),
        ]);
        const differing = before.filter((entry, index) => entry !== after[index]);
        if (differing.length > 0) throw new Error(`The copy differs from the source: ${differing.join(', ')}`);
        next('switch');
        return 2 * this.host.tables.length;
      }
      case 'switch': {
        const now = this.host.now();
        const rebase = buildHistoryRebase(target, this.host.tables, state);
        if (rebase.length > 0) await target.batch(rebase);
        await setResidency(target, state, 'active', now);
        state.placement = await switchPlacement(this.host.databases.directory, state, state.source, state.target, now);
        await setResidency(source, state, 'moved', now);
        rememberPlacement(state, state.target);
        next('delete');
        this.releaseWaitingWrites();
        return 4;
      }
    }
  }

  private async finishRollback(state: MoveState): Promise<void> {
    const now = this.host.now();
    await setResidency(this.binding(state.target), state, 'moved', now);
    await setResidency(this.binding(state.source), state, 'active', now);
    await clearMove(this.host.databases.directory, state);
    await this.host.state.delete(STATE_KEY);
    this.releaseWaitingWrites();
    this.finish({ outcome: 'failed', error: `The move to ${state.target} failed and was rolled back: ${state.error ?? 'unknown error'}` });
  }
}
