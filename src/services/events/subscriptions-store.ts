/** D1 storage of subscriptions and their deliveries: every statement is scoped by tenant and org. */
import { and, asc, eq, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runWrites } from '../../db/writes';
import { lastSequenceOf } from '../../events/outbox';
import { eventDeliveries, eventSubscriptions } from './tables';
import type { DeliveryRow, SubscriptionRow } from './tables';

/** How long a subscription lives after its creation or renewal: 3 days. */
export const SUBSCRIPTION_LIFETIME_MS = 3 * 86_400_000;
export const DELIVERY_STATUSES = ['delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface NewSubscription {
  readonly id: string;
  readonly resource: string;
  readonly notificationUrl: string;
  readonly clientState: string | null;
  readonly secret: string;
  readonly expirationDateTime: string;
  readonly createdOn: string;
  readonly createdBy: string;
}

function subscriptionOf(scope: TenantScope, id: string) {
  return and(scopeCondition(eventSubscriptions, scope), eq(eventSubscriptions.id, id));
}

/** Stores a subscription; it receives the events committed after it (its cursor starts at the newest event). */
export async function insertSubscription(db: Database, scope: TenantScope, subscription: NewSubscription): Promise<void> {
  await runWrites(db, [
    db.insert(eventSubscriptions).values({ ...subscription, ...scope, cursorSeq: sql`${lastSequenceOf(scope)}`, attempts: 0 }),
  ]);
}

export async function findSubscription(db: Database, scope: TenantScope, id: string): Promise<SubscriptionRow | undefined> {
  const rows = await db.select().from(eventSubscriptions).where(subscriptionOf(scope, id)).limit(1);
  return rows[0];
}

export async function listSubscriptions(db: Database, scope: TenantScope): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(eventSubscriptions)
    .where(scopeCondition(eventSubscriptions, scope))
    .orderBy(asc(eventSubscriptions.createdOn), asc(eventSubscriptions.id));
}

/** Deletes a subscription (its deliveries go with it); true when it existed. */
export async function deleteSubscription(db: Database, scope: TenantScope, id: string): Promise<boolean> {
  const [rows] = await runWrites(db, [
    db.delete(eventSubscriptions).where(subscriptionOf(scope, id)).returning({ id: eventSubscriptions.id }),
  ]);
  return rows.length > 0;
}

/** Moves the expiration on; answers the renewed row (undefined: it no longer exists). */
export async function renewSubscription(
  db: Database,
  scope: TenantScope,
  id: string,
  expirationDateTime: string,
): Promise<SubscriptionRow | undefined> {
  const [rows] = await runWrites(db, [
    db.update(eventSubscriptions).set({ expirationDateTime }).where(subscriptionOf(scope, id)).returning(),
  ]);
  return rows[0];
}

/** A subscription's deliveries, oldest first, optionally of one status. */
export async function listDeliveries(
  db: Database,
  scope: TenantScope,
  subscriptionId: string,
  status: DeliveryStatus | undefined,
  top: number,
): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(eventDeliveries)
    .where(
      and(
        scopeCondition(eventDeliveries, scope),
        eq(eventDeliveries.subscriptionId, subscriptionId),
        status === undefined ? undefined : eq(eventDeliveries.status, status),
      ),
    )
    .orderBy(asc(eventDeliveries.firstSeq))
    .limit(top);
}
