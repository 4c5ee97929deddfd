/**
 * Webhook subscriptions of a tenant/org and the record of their deliveries (tenant tables: they move with the
 * tenant/org). A subscription's delivery state (its cursor in the event log, the lease of the consumer delivering it,
 * the failure streak) lives on its row, so any consumer invocation can pick it up.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const eventSubscriptions = sqliteTable(
  'event_subscriptions',
  {
    id: text('id').primaryKey(),
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    /** Service prefix (`operations/emailTemplates`, `operations`) or `*`. */
    resource: text('resource').notNull(),
    notificationUrl: text('notification_url').notNull(),
    clientState: text('client_state'),
    /** The signing secret (`whsec_<base64>`): shown once at creation, kept to sign every delivery. */
    secret: text('secret').notNull(),
    expirationDateTime: text('expiration_date_time').notNull(),
    createdOn: text('created_on').notNull(),
    createdBy: text('created_by').notNull(),
    /** The last event sequence number delivered (or skipped: another resource, dead-lettered). */
    cursorSeq: integer('cursor_seq').notNull(),
    /** The consumer message delivering it now, and until when (a crashed consumer's lease runs out). */
    leaseToken: text('lease_token'),
    leaseUntil: text('lease_until'),
    /** First failure of the current batch (retries stop 24 hours after it), and the attempts made so far. */
    failingSince: text('failing_since'),
    attempts: integer('attempts').notNull().default(0),
    /** The last sequence number of the failing batch: its retries send the same events (and the same `webhook-id`). */
    pendingLastSeq: integer('pending_last_seq'),
  },
  (table) => [index('event_subscriptions_scope_idx').on(table.tenantKey, table.orgKey, table.expirationDateTime)],
);

/** One row per batch POSTed to a subscription: delivered, or failed (dead-lettered after 24 hours of retries). */
export const eventDeliveries = sqliteTable(
  'event_deliveries',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => eventSubscriptions.id, { onDelete: 'cascade' }),
    /** The `webhook-id` of the batch. */
    id: text('id').notNull(),
    status: text('status').$type<'delivered' | 'failed'>().notNull(),
    firstSeq: integer('first_seq').notNull(),
    lastSeq: integer('last_seq').notNull(),
    /** JSON array of the event ids in the batch. */
    eventIds: text('event_ids').notNull(),
    attempts: integer('attempts').notNull(),
    /** The receiver's last HTTP status (null: no answer) and what went wrong. */
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    firstAttemptOn: text('first_attempt_on').notNull(),
    completedOn: text('completed_on').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantKey, table.orgKey, table.subscriptionId, table.firstSeq] }),
    index('event_deliveries_status_idx').on(table.tenantKey, table.orgKey, table.subscriptionId, table.status, table.firstSeq),
  ],
);

export type SubscriptionRow = typeof eventSubscriptions.$inferSelect;
export type DeliveryRow = typeof eventDeliveries.$inferSelect;
