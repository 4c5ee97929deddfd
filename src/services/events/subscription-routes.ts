/** `/subscriptions`: webhook subscriptions of the tenant/org (create with a handshake, read, renew, delete, deliveries). */
import * as v from 'valibot';
import { recordNotFound } from '../../errors/api-error';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { emptyResponse, jsonResponse } from '../../http/responses';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute, OperationDoc } from '../../http/route';
import { DATE_TIME, GUID, INTEGER } from '../../openapi/values';
import { commitAlone } from '../../tenant/unit-of-work';
import { isGuid } from '../../validation/values';
import { checkHandshake } from './handshake';
import { requirePublicHost } from './host-check';
import { generateSigningSecret } from './signing';
import { parseDeliveryStatus, parseSubscriptionBody, subscriptionFields } from './subscription-input';
import {
  DELIVERY_STATUSES,
  findSubscription,
  listDeliveries,
  listSubscriptions,
  stageSubscriptionDelete,
  stageSubscriptionInsert,
  stageSubscriptionRenewal,
  SUBSCRIPTION_LIFETIME_MS,
} from './subscriptions-store';
import type { DeliveryRow, SubscriptionRow } from './tables';

const SUBSCRIPTIONS_PATH = '/subscriptions';
const DELIVERIES_MAX = 1000;
const tags = ['Events'];

const Subscription = v.strictObject({
  id: GUID,
  resource: v.string(),
  notificationUrl: v.string(),
  clientState: v.nullable(v.string()),
  expirationDateTime: DATE_TIME,
  createdOn: DATE_TIME,
  createdBy: v.string(),
});
const CreatedSubscription = v.strictObject({
  ...Subscription.entries,
  secret: v.pipe(v.string(), v.description('The signing secret (`whsec_...`), shown only in this answer')),
});
const Delivery = v.strictObject({
  id: v.pipe(v.string(), v.description('The `webhook-id` of the batch')),
  status: v.picklist(DELIVERY_STATUSES),
  eventIds: v.array(GUID),
  attempts: INTEGER,
  lastStatus: v.nullable(v.pipe(INTEGER, v.description("The receiver's last HTTP status (null: no answer)"))),
  lastError: v.nullable(v.string()),
  firstAttemptOn: DATE_TIME,
  completedOn: DATE_TIME,
});
const SubscriptionInput = v.strictObject(subscriptionFields);
const SubscriptionList = v.strictObject({ items: v.array(Subscription) });
const DeliveryList = v.strictObject({ items: v.array(Delivery) });

const schemas = { Subscription, CreatedSubscription, Delivery, SubscriptionInput };

function toSubscription(row: SubscriptionRow) {
  return {
    id: row.id,
    resource: row.resource,
    notificationUrl: row.notificationUrl,
    clientState: row.clientState,
    expirationDateTime: row.expirationDateTime,
    createdOn: row.createdOn,
    createdBy: row.createdBy,
  };
}

/** The stored event ids (a JSON array of GUIDs) as the answer lists them. */
function parseEventIds(text: string): string[] {
  const ids: unknown = JSON.parse(text);
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

function toDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    status: row.status,
    eventIds: parseEventIds(row.eventIds),
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    firstAttemptOn: row.firstAttemptOn,
    completedOn: row.completedOn,
  };
}

function expirationFrom(now: Date): string {
  return new Date(now.getTime() + SUBSCRIPTION_LIFETIME_MS).toISOString();
}

/** The `{id}` segment's subscription; 404 when it is not one of the tenant/org's. */
async function requireSubscription(ctx: ApiContext): Promise<SubscriptionRow> {
  const id = ctx.params.id ?? '';
  const found = isGuid(id) ? await findSubscription(ctx.tenant, id) : undefined;
  if (!found) throw recordNotFound(`Subscription '${id}'`, true, 'id');
  return found;
}

async function handleCreate(ctx: ApiContext) {
  const input = parseSubscriptionBody(await readJsonBody(ctx.request), ctx.platform.config.webhooksAllowLocalHttp);
  const addresses = await requirePublicHost(ctx.platform.config, input.notificationUrl);
  await checkHandshake(input.notificationUrl, { pinnedFetch: ctx.platform.pinnedFetch, addresses });
  const unit = ctx.tenant;
  const expirationDateTime = expirationFrom(new Date(unit.stamp.on));
  const staged = { id: crypto.randomUUID(), ...input, secret: generateSigningSecret(), expirationDateTime };
  const subscription = await commitAlone(unit, (batch) => batch.stage(stageSubscriptionInsert(staged)));
  const { secret, ...shown } = subscription;
  return jsonResponse(
    CreatedSubscription,
    { ...shown, secret },
    // The answer carries the signing secret: never cached (as the API client answers that carry theirs).
    { status: 201, headers: { location: `${ctx.apiBase}${SUBSCRIPTIONS_PATH}/${subscription.id}`, 'cache-control': 'no-store' } },
  );
}

async function handleRenew(ctx: ApiContext) {
  const current = await requireSubscription(ctx);
  const addresses = await requirePublicHost(ctx.platform.config, current.notificationUrl);
  await checkHandshake(current.notificationUrl, { pinnedFetch: ctx.platform.pinnedFetch, addresses });
  const unit = ctx.tenant;
  const renewal = stageSubscriptionRenewal(current.id, expirationFrom(new Date(unit.stamp.on)));
  const [renewed] = await commitAlone(unit, (batch) => batch.stage(renewal));
  if (!renewed) throw recordNotFound(`Subscription '${current.id}'`, true, 'id');
  return jsonResponse(Subscription, toSubscription(renewed));
}

async function handleDeliveries(ctx: ApiContext) {
  const subscription = await requireSubscription(ctx);
  const status = parseDeliveryStatus(ctx.url.searchParams.get('status'));
  const rows = await listDeliveries(ctx.tenant, subscription.id, status, DELIVERIES_MAX);
  return jsonResponse(DeliveryList, { items: rows.map(toDelivery) });
}

const idParameter = { name: 'id', in: 'path' as const, description: 'The subscription id', schema: GUID };
const notFound = { 404: { description: 'No subscription of the tenant/org has this id' } };
const handshakeRule =
  'The server first POSTs `notificationUrl?validationToken=<random>`; the receiver must answer 200 with that token as the body (within 10 s), else 400 naming notificationUrl.';

const hostRule =
  'Only https:// URLs to public hosts (http://127.0.0.1 too when the development flag WEBHOOKS_ALLOW_LOCAL_HTTP is on): a host name must resolve (DNS-over-HTTPS, A and AAAA, CNAME chains followed) to public addresses only, else 400 naming notificationUrl; the check is repeated at renewal and before every delivery.';

const createDoc = {
  summary: 'Subscribe a URL to change notifications (validation handshake first)',
  operationId: 'createSubscription',
  description: `${handshakeRule} ${hostRule} The subscription expires after 3 days unless renewed.`,
  schemas,
  requestBody: { description: 'The URL, the resource prefix (or `*`) and an optional clientState', schema: SubscriptionInput },
  responses: {
    201: {
      description: 'Subscribed: the signing secret is shown in this answer only (never cached)',
      schema: CreatedSubscription,
      headers: ['Location', 'Cache-Control'],
    },
    400: {
      description:
        'Not valid, its host resolves to a non-public address or cannot be resolved, or the URL did not pass the handshake (all name notificationUrl)',
    },
  },
} satisfies OperationDoc;

export const subscriptionRoutes: ApiRoute[] = [
  defineApiRoute({
    method: 'GET',
    path: SUBSCRIPTIONS_PATH,
    scope: 'application',
    doc: {
      summary: 'The subscriptions of the tenant/org',
      tags,
      operationId: 'listSubscriptions',
      schemas,
      responses: {
        200: {
          description: 'Every subscription (expired ones too, until deleted)',
          schema: SubscriptionList,
        },
      },
    },
    handle: async (ctx) => jsonResponse(SubscriptionList, { items: (await listSubscriptions(ctx.tenant)).map(toSubscription) }),
  }),
  defineApiRoute({ method: 'POST', path: SUBSCRIPTIONS_PATH, scope: 'admin', doc: { ...createDoc, tags }, handle: handleCreate }),
  defineApiRoute({
    method: 'GET',
    path: `${SUBSCRIPTIONS_PATH}/:id/deliveries`,
    scope: 'application',
    doc: {
      summary: "A subscription's deliveries: delivered batches and dead letters (status=failed)",
      tags,
      operationId: 'listSubscriptionDeliveries',
      schemas,
      parameters: [
        idParameter,
        {
          name: 'status',
          in: 'query',
          description: 'Only `delivered` or only `failed` (dead-lettered)',
          schema: v.picklist(DELIVERY_STATUSES),
        },
      ],
      responses: { 200: { description: 'Oldest first', schema: DeliveryList }, ...notFound },
    },
    handle: handleDeliveries,
  }),
  defineApiRoute({
    method: 'POST',
    path: `${SUBSCRIPTIONS_PATH}/:id/renew`,
    scope: 'admin',
    doc: {
      summary: 'Renew a subscription for 3 days from now (repeats the validation handshake)',
      tags,
      operationId: 'renewSubscription',
      description: `${hostRule} ${handshakeRule}`,
      schemas,
      parameters: [idParameter],
      responses: {
        200: { description: 'Renewed', schema: Subscription },
        400: {
          description:
            'The host resolves to a non-public address or cannot be resolved, or the URL did not pass the handshake (names notificationUrl)',
        },
        ...notFound,
      },
    },
    handle: handleRenew,
  }),
  defineApiRoute({
    method: 'GET',
    path: `${SUBSCRIPTIONS_PATH}/:id`,
    scope: 'application',
    doc: {
      summary: 'A subscription',
      tags,
      operationId: 'readSubscription',
      schemas,
      parameters: [idParameter],
      responses: { 200: { description: 'The subscription (never its secret)', schema: Subscription }, ...notFound },
    },
    handle: async (ctx) => jsonResponse(Subscription, toSubscription(await requireSubscription(ctx))),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: `${SUBSCRIPTIONS_PATH}/:id`,
    scope: 'admin',
    doc: {
      summary: 'Delete a subscription (no more notifications; its deliveries go with it)',
      tags,
      operationId: 'deleteSubscription',
      schemas,
      parameters: [idParameter],
      responses: { 204: { description: 'Deleted' }, ...notFound },
    },
    handle: async (ctx) => {
      const subscription = await requireSubscription(ctx);
      const deleted = await commitAlone(ctx.tenant, (batch) => batch.stage(stageSubscriptionDelete(subscription.id)));
      if (deleted.length === 0) throw recordNotFound(`Subscription '${subscription.id}'`, true, 'id');
      return emptyResponse(204);
    },
  }),
];
