/** Validation of subscription inputs (valibot), naming every bad field at once. */
import * as v from 'valibot';
import { validationError } from '../../errors/api-error';
import { issueMessage, message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';
import { parseStrictBody } from '../../validation/strict-body';
import { isPlainObject } from '../../validation/values';
import { checkNotificationUrl } from './notification-url';
import { DELIVERY_STATUSES } from './subscriptions-store';
import type { DeliveryStatus } from './subscriptions-store';

/**
 * A resource filter (subscriptions, `GET /changes?resource=`): `*`, or a service prefix of ASCII letters and digits,
 * segments joined by `/`, at most 200 characters.
 */
export const RESOURCE_FILTER = /^(\*|[A-Za-z][A-Za-z0-9]*(\/[A-Za-z][A-Za-z0-9]*)*)$/;
export const RESOURCE_FILTER_MAX = 200;

/** Why `value` is not a resource filter (the message names `field`), or undefined when it is one. */
export function checkResourceFilter(value: string, field: string): Message | undefined {
  if (value.length > RESOURCE_FILTER_MAX) return message('tooLong', { field, max: RESOURCE_FILTER_MAX });
  return RESOURCE_FILTER.test(value) ? undefined : message('resourcePrefix', { field });
}

export const subscriptionFields = {
  notificationUrl: v.pipe(
    v.string(issueMessage('mustBeString', { field: 'notificationUrl' })),
    v.description('Where notifications are POSTed (https://)'),
  ),
  resource: v.pipe(
    v.string(issueMessage('mustBeString', { field: 'resource' })),
    v.maxLength(RESOURCE_FILTER_MAX, issueMessage('tooLong', { field: 'resource', max: RESOURCE_FILTER_MAX })),
    v.regex(RESOURCE_FILTER, issueMessage('resourcePrefix', { field: 'resource' })),
    v.description('Service prefix of the records to notify about (`operations/emailTemplates`, `referenceData`), or `*` for all'),
  ),
  clientState: v.optional(
    v.nullable(
      v.pipe(
        v.string(issueMessage('mustBeString', { field: 'clientState' })),
        v.maxLength(255, issueMessage('tooLong', { field: 'clientState', max: 255 })),
        v.description('Sent back in every notification'),
      ),
    ),
  ),
};

const SubscriptionBody = v.strictObject(subscriptionFields);

interface SubscriptionInput {
  readonly notificationUrl: string;
  readonly resource: string;
  readonly clientState: string | null;
}

export function parseSubscriptionBody(body: unknown, allowLocalHttp: boolean): SubscriptionInput {
  if (!isPlainObject(body)) throw validationError([{ path: '', message: message('bodyMustBeObject') }]);
  const result = parseStrictBody(SubscriptionBody, body);
  const errors = result.success ? [] : result.errors;
  const url = typeof body.notificationUrl === 'string' ? checkNotificationUrl(body.notificationUrl, allowLocalHttp) : undefined;
  if (url !== undefined) errors.push({ path: 'notificationUrl', message: url });
  if (!result.success || errors.length > 0) throw validationError(errors);
  return {
    notificationUrl: result.output.notificationUrl,
    resource: result.output.resource,
    clientState: result.output.clientState ?? null,
  };
}

export function parseDeliveryStatus(raw: string | null): DeliveryStatus | undefined {
  if (raw === null) return undefined;
  const status = DELIVERY_STATUSES.find((choice) => choice === raw);
  if (!status)
    throw validationError([
      { path: 'status', message: message('mustBeOneOf', { field: 'status', choices: DELIVERY_STATUSES.join(', ') }) },
    ]);
  return status;
}
