/**
 * The delivery consumer: one job delivers one subscription's pending events, in commit order, at most 100 per POST.
 * A lease on the subscription's row lets one consumer at a time deliver it (so batches of a record never overtake each
 * other); the cursor moves on only after the receiver's 2xx (at least once). Network errors, timeouts, 408, 429 and
 * 5xx are retried with exponential backoff and jitter for 24 hours, then the batch is dead-lettered; any other 4xx
 * dead-letters it at once; 410 deletes the subscription. A host that resolves to a non-public address or cannot be
 * resolved right before the POST (host-check.ts) is not sent to: that counts as a network error.
 */
import { and, asc, gt, lte, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import { lastSequenceOf } from '../../events/outbox';
import { changeEventRetention, changeEvents } from '../../events/table';
import type { ChangeEventRow } from '../../events/table';
import type { DeliveryJob, DeliveryOutcome, Platform } from '../../runtime/platform';
import { describeEvent, matchesResource } from '../../events/feed';
import { checkNotificationHost, describeHostRefusal } from './host-check';
import { postToReceiver } from './receiver';
import type { ReceiverAnswer } from './receiver';
import { signWebhook } from './signing';
import { stageBatchCompletion, stageLeaseClaim, stageLeaseRelease, stageRetry } from './delivery-writes';
import { stageSubscriptionDelete } from './subscriptions-store';
import type { SubscriptionRow } from './tables';
import { openTenantSession } from '../../tenant/session';
import type { TenantReader } from '../../tenant/session';
import { commitAlone } from '../../tenant/unit-of-work';
import type { StagedWrite } from '../../tenant/unit-of-work';

const BATCH_MAX = 100;
/** Retries stop this long after a batch's first failure. */
const RETRY_WINDOW_MS = 24 * 3_600_000;
/** The longest wait between two attempts (the Queues maximum delay). */
const MAX_RETRY_DELAY_SECONDS = 12 * 3600;
/** Batches one job delivers before it hands on to a new job. */
const BATCHES_PER_JOB = 10;

const ACK: DeliveryOutcome = { ack: true };
/** The actor of the delivery job's unit of work (its writes carry no audit fields). */
const DELIVERY_ACTOR = 'system';

function isRetryable(answer: ReceiverAnswer): boolean {
  if ('error' in answer) return true;
  return answer.status === 408 || answer.status === 429 || answer.status >= 500;
}

/** Exponential backoff with jitter: base x 2^attempt, at most 12 hours, then a random value in its upper half. */
function computeRetryDelay(baseSeconds: number, attempt: number): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_SECONDS, baseSeconds * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** The tenant/org's newest sequence number, as one row (an aggregate answers one even with no retention mark). */
function selectNewestSequence(scope: TenantScope) {
  return sqlBuilder
    .select({ last: sql<number>`${lastSequenceOf(scope)}`, marks: sql<number>`count(*)` })
    .from(changeEventRetention)
    .where(scopeCondition(changeEventRetention, scope));
}

/** The next batch from the cursor (a failing batch: the same events again) and the newest sequence number. */
async function readBatch(tenant: TenantReader, subscription: SubscriptionRow) {
  const { scope } = tenant;
  const upTo = subscription.pendingLastSeq;
  const [rows, marks] = await tenant.readBatch([
    sqlBuilder
      .select()
      .from(changeEvents)
      .where(
        and(
          scopeCondition(changeEvents, scope),
          gt(changeEvents.seq, subscription.cursorSeq),
          upTo === null ? undefined : lte(changeEvents.seq, upTo),
          matchesResource(subscription.resource),
        ),
      )
      .orderBy(asc(changeEvents.seq))
      .limit(BATCH_MAX),
    selectNewestSequence(scope),
  ]);
  return { rows, last: Number(marks[0]?.last ?? 0) };
}

function buildNotification(subscription: SubscriptionRow, rows: readonly ChangeEventRow[]): string {
  return JSON.stringify({
    value: rows.map((row) => ({ subscriptionId: subscription.id, clientState: subscription.clientState, ...describeEvent(row) })),
  });
}

/** Delivers what the subscription has pending; answers whether the message is done or must be retried later. */
export async function deliverSubscription(platform: Platform, job: DeliveryJob): Promise<DeliveryOutcome> {
  const scope: TenantScope = { tenantKey: job.body.tenantKey, orgKey: job.body.orgKey };
  // The job's session: its tenant/org, opened once; its writes are committed one at a time.
  const unit = openTenantSession({ executor: platform.openTenant(scope), stamp: { on: platform.now().toISOString(), by: DELIVERY_ACTOR } });
  const commit = <R>(write: StagedWrite<R>): Promise<R> => commitAlone(unit, (batch) => batch.stage(write));
  let [subscription] = await commit(stageLeaseClaim(job, platform.now()));
  for (let batch = 0; subscription && batch < BATCHES_PER_JOB; batch += 1) {
    const { rows, last } = await readBatch(unit, subscription);
    const first = rows[0];
    const lastRow = rows.at(-1);
    if (!first || !lastRow) {
      await commit(stageLeaseRelease(job, subscription, last));
      // A job that arrived while this one held the lease was dropped: events committed since the read go to a new job.
      const [newest] = await unit.read(selectNewestSequence(scope));
      if (Number(newest?.last ?? 0) > last) await platform.deliveries?.send(job.body);
      return ACK;
    }
    const webhookId = `${subscription.id}.${first.seq}-${lastRow.seq}`;
    const body = buildNotification(subscription, rows);
    const headers = await signWebhook(subscription.secret, webhookId, platform.now(), body);
    // The host is looked up again before each POST (DNS answers change): a non-public or unresolvable one is not sent to.
    // The POST connects to the addresses just checked (where the platform pins them: Deno).
    const check = await checkNotificationHost(platform.config, subscription.notificationUrl);
    const post = { url: subscription.notificationUrl, body, headers: { 'content-type': 'application/json', ...headers } };
    const answer: ReceiverAnswer =
      'refusal' in check
        ? { error: describeHostRefusal(check.refusal) }
        : await postToReceiver(post, { pinnedFetch: platform.pinnedFetch, addresses: check.addresses });
    const now = platform.now();
    if (!('error' in answer) && answer.status === 410) {
      await commit(stageSubscriptionDelete(subscription.id));
      return ACK;
    }
    const delivered = !('error' in answer) && answer.status >= 200 && answer.status < 300;
    const expired = subscription.failingSince !== null && now.getTime() - Date.parse(subscription.failingSince) >= RETRY_WINDOW_MS;
    if (!delivered && isRetryable(answer) && !expired) {
      const delay = computeRetryDelay(platform.config.webhookRetryBaseSeconds, subscription.attempts);
      await commit(stageRetry(job, subscription, lastRow.seq, delay, now));
      return { retryAfterSeconds: delay };
    }
    const completion = stageBatchCompletion(
      job,
      subscription,
      { rows, webhookId, status: delivered ? 'delivered' : 'failed', answer },
      now,
    );
    if (!(await commit(completion))) return ACK;
    subscription = { ...subscription, cursorSeq: lastRow.seq, failingSince: null, attempts: 0, pendingLastSeq: null };
  }
  // More than one job's worth: a new job continues (the lease is let go for it).
  if (subscription) {
    await commit(stageLeaseRelease(job, subscription, 0));
    await platform.deliveries?.send(job.body);
  }
  return ACK;
}
