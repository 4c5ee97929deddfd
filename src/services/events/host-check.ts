/**
 * The DNS rule of notification URLs: a host name must resolve (DNS-over-HTTPS, resolve-host.ts) to public addresses
 * only. Checked when a subscription is made or renewed (400 naming notificationUrl) and again before every delivery,
 * since DNS answers change (rebinding): a delivery to a host that no longer passes is not sent and is retried like a
 * network error (then dead-lettered after 24 hours). A host that passes is connected to at the addresses checked where
 * the platform connects itself (Deno: Platform.pinnedFetch), so that no second lookup can answer otherwise; on
 * Workers, Cloudflare's network resolves and connects, and does not connect to private or reserved addresses.
 */
import type { AppConfig } from '../../config/env';
import { validationError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';
import { isPrivateAddress } from './address-ranges';
import { hostToResolve } from './notification-url';
import { resolveHost } from './resolve-host';

type HostRefusal =
  | { readonly kind: 'private'; readonly host: string; readonly address: string }
  | { readonly kind: 'unresolved'; readonly host: string; readonly reason: string };

/**
 * The outcome of the rule for the URL's host now: why notifications must not go there, or the addresses it resolves to,
 * every one public, which the POST then connects to (receiver.ts; none when the host is an IP literal or a development
 * loopback host: nothing to resolve).
 */
type HostCheck = { readonly refusal: HostRefusal } | { readonly addresses: readonly string[] };

export async function checkNotificationHost(config: AppConfig, notificationUrl: string): Promise<HostCheck> {
  const host = hostToResolve(new URL(notificationUrl), config.webhooksAllowLocalHttp);
  if (host === undefined) return { addresses: [] };
  const resolution = await resolveHost(config.webhooksDnsResolverUrl, host);
  if ('error' in resolution) return { refusal: { kind: 'unresolved', host, reason: resolution.error } };
  // An answer that is not an address at all is refused like a private one: only what is known to be public passes.
  const refused = resolution.addresses.find((address) => isPrivateAddress(address) !== false);
  return refused === undefined ? { addresses: resolution.addresses } : { refusal: { kind: 'private', host, address: refused } };
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

/**
 * Subscription and renewal: 400 naming notificationUrl unless its host resolves to public addresses only; those
 * addresses (for the handshake to connect to).
 */
export async function requirePublicHost(config: AppConfig, notificationUrl: string): Promise<readonly string[]> {
  const check = await checkNotificationHost(config, notificationUrl);
  if ('addresses' in check) return check.addresses;
  const problem = toMessage(check.refusal);
  throw validationError([{ path: 'notificationUrl', message: problem }], problem);
}
