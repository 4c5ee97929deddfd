/**
 * The delivery consumer's writes to a subscription's row and its delivery records, each staged in the job's unit of
 * work (src/tenant/unit-of-work.ts) and committed alone: every one holds, or takes, the subscription's lease.
 */
import { and, eq, getTableColumns, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { ChangeEventRow } from '../../events/table';
import type { DeliveryJob } from '../../runtime/platform';
import { bindRequestQuery } from '../../tenant/compiled';
import { planStatement, stageReturning, stageStatements } from '../../tenant/staged-statements';
import { rowsOf } from '../../tenant/unit-of-work';
import type { StagedWrite } from '../../tenant/unit-of-work';
import type { ReceiverAnswer } from './receiver';
import { eventDeliveries, eventSubscriptions } from './tables';
import type { SubscriptionRow } from './tables';

/** How long a consumer holds a subscription beyond what it is doing (a crashed one lets go after this). */
const LEASE_MS = 60_000;

function subscriptionOf(scope: TenantScope, id: string) {
  return and(scopeCondition(eventSubscriptions, scope), eq(eventSubscriptions.id, id));
}

/** The subscription while `job` holds its lease. */
function heldBy(scope: TenantScope, job: DeliveryJob, subscription: SubscriptionRow) {
  return and(subscriptionOf(scope, subscription.id), eq(eventSubscriptions.leaseToken, job.id));
}

/** Takes the subscription's lease for `job` (free, run out, or already the job's); its result: the row, if taken. */
export function stageLeaseClaim(job: DeliveryJob, now: Date): StagedWrite<SubscriptionRow[]> {
  const at = now.toISOString();
  const columns = getTableColumns(eventSubscriptions);
  return stageReturning('event_subscriptions', columns, ({ scope }) =>
    sqlBuilder
      .update(eventSubscriptions)
      .set({ leaseToken: job.id, leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString() })
      .where(
        and(
          subscriptionOf(scope, job.body.subscriptionId),
          gt(eventSubscriptions.expirationDateTime, at),
          or(isNull(eventSubscriptions.leaseUntil), lt(eventSubscriptions.leaseUntil, at), eq(eventSubscriptions.leaseToken, job.id)),
        ),
      )
      .returning(columns),
  );
}

function describeAnswer(answer: ReceiverAnswer): { lastStatus: number | null; lastError: string | null } {
  if ('error' in answer) return { lastStatus: null, lastError: answer.error };
  return { lastStatus: answer.status, lastError: answer.status < 300 ? null : `answered ${answer.status}: ${answer.text.slice(0, 200)}` };
}

/** A batch POSTed: its events, its `webhook-id`, how it ended and the receiver's answer. */
interface CompletedBatch {
  readonly rows: readonly ChangeEventRow[];
  readonly webhookId: string;
  readonly status: 'delivered' | 'failed';
  readonly answer: ReceiverAnswer;
}

/** Records the batch (delivered or dead-lettered) and moves the cursor past it, while the job holds the lease; whether it did. */
export function stageBatchCompletion(
  job: DeliveryJob,
  subscription: SubscriptionRow,
  batch: CompletedBatch,
  now: Date,
): StagedWrite<boolean> {
  return {
    plan({ scope }) {
      const first = batch.rows[0]?.seq ?? 0;
      const last = batch.rows.at(-1)?.seq ?? 0;
      const returned = { id: eventSubscriptions.id };
      const move = sqlBuilder
        .update(eventSubscriptions)
        .set({
          cursorSeq: last,
          failingSince: null,
          attempts: 0,
          pendingLastSeq: null,
          leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
        })
        .where(heldBy(scope, job, subscription))
        .returning(returned);
      const { lastStatus, lastError } = describeAnswer(batch.answer);
      const record = sqlBuilder
        .insert(eventDeliveries)
        .select(
          sql`select ${scope.tenantKey}, ${scope.orgKey}, ${subscription.id}, ${batch.webhookId}, ${batch.status}, ${first}, ${last},
          ${JSON.stringify(batch.rows.map((row) => row.id))}, ${subscription.attempts + 1}, ${lastStatus},
          ${lastError}, ${subscription.failingSince ?? now.toISOString()}, ${now.toISOString()}
          where changes() > 0`,
        )
        .onConflictDoNothing();
      const moved = bindRequestQuery(move, returned);
      return {
        table: 'event_subscriptions',
        statements: [{ statement: moved }, planStatement(record)],
        settle: ([rows]) => rowsOf(moved, rows).length > 0,
      };
    },
  };
}

/** Lets go of the subscription, its cursor past `skipTo` when nothing of its resource came after the cursor. */
export function stageLeaseRelease(job: DeliveryJob, subscription: SubscriptionRow, skipTo: number): StagedWrite<void> {
  return stageStatements('event_subscriptions', ({ scope }) => [
    sqlBuilder
      .update(eventSubscriptions)
      .set({ leaseToken: null, leaseUntil: null, cursorSeq: sql`max(${eventSubscriptions.cursorSeq}, ${skipTo})` })
      .where(heldBy(scope, job, subscription)),
  ]);
}

/** Keeps the lease through the retry's delay and counts the attempt of the batch up to `lastSeq`. */
export function stageRetry(
  job: DeliveryJob,
  subscription: SubscriptionRow,
  lastSeq: number,
  delaySeconds: number,
  now: Date,
): StagedWrite<void> {
  return stageStatements('event_subscriptions', ({ scope }) => [
    sqlBuilder
      .update(eventSubscriptions)
      .set({
        attempts: sql`${eventSubscriptions.attempts} + 1`,
        failingSince: subscription.failingSince ?? now.toISOString(),
        pendingLastSeq: lastSeq,
        leaseUntil: new Date(now.getTime() + delaySeconds * 1000 + LEASE_MS).toISOString(),
      })
      .where(heldBy(scope, job, subscription)),
  ]);
}
