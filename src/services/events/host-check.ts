/**
 * The DNS rule of notification URLs: a host name must resolve (DNS-over-HTTPS, resolve-host.ts) to public addresses
 * only. Checked when a subscription is made or renewed (400 naming notificationUrl) and again before every delivery,
 * since DNS answers change (rebinding): a delivery to a host that no longer passes is not sent and is retried like a
 * network error (then dead-lettered after 24 hours).
 */
import type { AppConfig } from '../../config/env';
import { validationError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';
import { isPrivateAddress } from './address-ranges';
import { needsResolution } from './notification-url';
import { resolveHost } from './resolve-host';

export type HostRefusal =
  | { readonly kind: 'private'; readonly host: string; readonly address: string }
  | { readonly kind: 'unresolved'; readonly host: string; readonly reason: string };

/** Why notifications must not go to the URL's host now, or undefined when every address it resolves to is public. */
export async function checkNotificationHost(config: AppConfig, notificationUrl: string): Promise<HostRefusal | undefined> {
  const url = new URL(notificationUrl);
  if (!needsResolution(url, config.webhooksAllowLocalHttp)) return undefined;
  const host = url.hostname;
  const resolution = await resolveHost(config.webhooksDnsResolverUrl, host);
  if ('error' in resolution) return { kind: 'unresolved', host, reason: resolution.error };
  // An answer that is not an address at all is refused like a private one: only what is known to be public passes.
  const refused = resolution.addresses.find((address) => isPrivateAddress(address) !== false);
  return refused === undefined ? undefined : { kind: 'private', host, address: refused };
}

export function describeHostRefusal(refusal: HostRefusal): string {
  return refusal.kind === 'private'
    ? `not sent: ${refusal.host} resolves to ${refusal.address}, which is not a public address`
    : `not sent: ${refusal.host} could not be resolved (${refusal.reason})`;
}

function toMessage(refusal: HostRefusal): Message {
  const field = 'notificationUrl';
  return refusal.kind === 'private'
    ? message('urlResolvesPrivate', { field, host: refusal.host, address: refusal.address })
    : message('urlUnresolved', { field, host: refusal.host, reason: refusal.reason });
}

/** Subscription and renewal: 400 naming notificationUrl unless its host resolves to public addresses only. */
export async function requirePublicHost(config: AppConfig, notificationUrl: string): Promise<void> {
  const refusal = await checkNotificationHost(config, notificationUrl);
  if (!refusal) return;
  const problem = toMessage(refusal);
  throw validationError([{ path: 'notificationUrl', message: problem }], problem);
}
