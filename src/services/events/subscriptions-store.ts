/**
 * D1 storage of subscriptions and their deliveries: every statement is scoped by tenant and org; writes are staged in
 * the unit of work of the request or the delivery job (src/tenant/unit-of-work.ts).
 */
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import type { TenantReader } from '../../tenant/session';
import { sqlBuilder } from '../../db/sql';
import { lastSequenceOf } from '../../events/outbox';
import { planStatement, stageReturning } from '../../tenant/staged-statements';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { eventDeliveries, eventSubscriptions } from './tables';
import type { DeliveryRow, SubscriptionRow } from './tables';

/** How long a subscription lives after its creation or renewal: 3 days. */
export const SUBSCRIPTION_LIFETIME_MS = 3 * 86_400_000;
export const DELIVERY_STATUSES = ['delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A subscription to store: what its creator chose and its secret (its tenant/org and audit fields: the unit's). */
interface NewSubscription {
  readonly id: string;
  readonly resource: string;
  readonly notificationUrl: string;
  readonly clientState: string | null;
  readonly secret: string;
  readonly expirationDateTime: string;
}

function subscriptionOf(scope: TenantScope, id: string) {
  return and(scopeCondition(eventSubscriptions, scope), eq(eventSubscriptions.id, id));
}

/**
 * Stores a subscription, created at the unit's time by its subject; it receives the events committed after it (its
 * cursor starts at the newest event). Its result: the stored fields as the answer shows them.
 */
export function stageSubscriptionInsert(
  subscription: NewSubscription,
): StagedWrite<NewSubscription & { createdOn: string; createdBy: string }> {
  return {
    plan({ scope, stamp }) {
      const stored = { ...subscription, createdOn: stamp.on, createdBy: stamp.by };
      const insert = sqlBuilder
        .insert(eventSubscriptions)
        .values({ ...stored, ...scope, cursorSeq: sql`${lastSequenceOf(scope)}`, attempts: 0 });
      return { table: 'event_subscriptions', statements: [planStatement(insert)], settle: () => stored };
    },
  };
}

export async function findSubscription(tenant: TenantReader, id: string): Promise<SubscriptionRow | undefined> {
  const rows = await tenant.read(sqlBuilder.select().from(eventSubscriptions).where(subscriptionOf(tenant.scope, id)).limit(1));
  return rows[0];
}

export async function listSubscriptions(tenant: TenantReader): Promise<SubscriptionRow[]> {
  return tenant.read(
    sqlBuilder
      .select()
      .from(eventSubscriptions)
      .where(scopeCondition(eventSubscriptions, tenant.scope))
      .orderBy(asc(eventSubscriptions.createdOn), asc(eventSubscriptions.id)),
  );
}

/** Deletes a subscription (its deliveries go with it); its result: the deleted rows' ids (none: it did not exist). */
export function stageSubscriptionDelete(id: string): StagedWrite<{ id: string }[]> {
  const returned = { id: eventSubscriptions.id };
  return stageReturning('event_subscriptions', returned, ({ scope }) =>
    sqlBuilder.delete(eventSubscriptions).where(subscriptionOf(scope, id)).returning(returned),
  );
}

/** Moves the expiration on; its result: the renewed row, if it still exists. */
export function stageSubscriptionRenewal(id: string, expirationDateTime: string): StagedWrite<SubscriptionRow[]> {
  const columns = getTableColumns(eventSubscriptions);
  return stageReturning('event_subscriptions', columns, ({ scope }) =>
    sqlBuilder.update(eventSubscriptions).set({ expirationDateTime }).where(subscriptionOf(scope, id)).returning(columns),
  );
}

/** A subscription's deliveries, oldest first, optionally of one status. */
export async function listDeliveries(
  tenant: TenantReader,
  subscriptionId: string,
  status: DeliveryStatus | undefined,
  top: number,
): Promise<DeliveryRow[]> {
  return tenant.read(
    sqlBuilder
      .select()
      .from(eventDeliveries)
      .where(
        and(
          scopeCondition(eventDeliveries, tenant.scope),
          eq(eventDeliveries.subscriptionId, subscriptionId),
          status === undefined ? undefined : eq(eventDeliveries.status, status),
        ),
      )
      .orderBy(asc(eventDeliveries.firstSeq))
      .limit(top),
  );
}
