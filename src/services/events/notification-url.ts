/**
 * Which notification URLs a subscription may have: `https://` to a public host. With the development flag
 * (WEBHOOKS_ALLOW_LOCAL_HTTP, turned on by `npm start`), `http://` to a loopback host (127.0.0.1, ::1, localhost) too.
 * Hosts that are, or are named as, private, loopback, link-local, shared or reserved addresses are refused; a host name
 * is looked up too, at subscription, renewal and before every delivery (host-check.ts). Every check sees the host
 * normalized (normalizeHost: lower case, one trailing dot removed).
 */

import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';
import { isPrivateAddress, parseIpv4 } from './address-ranges';

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/**
 * The host as every check sees it: lower case, one trailing dot removed (`localhost.` and
 * `metadata.google.internal.` are the fully qualified spellings of `localhost` and `metadata.google.internal`, and
 * resolve like them).
 */
export function normalizeHost(hostname: string): string {
  const lower = hostname.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

function isLoopback(host: string): boolean {
  const v4 = parseIpv4(host);
  return host === 'localhost' || host === '[::1]' || (v4 !== undefined && v4 >>> 24 === 127);
}

/**
 * True when the host (normalized) names a non-public address: an IP literal in those ranges, a local name, a name
 * without a dot, or one with an empty label (`a..b`, `localhost..`).
 */
function isPrivateHost(host: string): boolean {
  return isPrivateAddress(host) ?? (LOCAL_NAMES.test(host) || !host.includes('.') || host.split('.').includes(''));
}

/**
 * The host the URL's addresses must be looked up for (src/services/events/host-check.ts), normalized; undefined for
 * IP literals (judged as written) and, under the development flag, the loopback hosts http:// may use.
 */
export function hostToResolve(url: URL, allowLocalHttp: boolean): string | undefined {
  const host = normalizeHost(url.hostname);
  return isPrivateAddress(host) === undefined && !(allowLocalHttp && isLoopback(host)) ? host : undefined;
}

const field = { field: 'notificationUrl' };

/** Why the URL cannot receive notifications, or undefined when it can. */
export function checkNotificationUrl(raw: string, allowLocalHttp: boolean): Message | undefined {
  if (raw.length > 2048) return message('tooLong', { ...field, max: 2048 });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return message('urlNotAbsolute', field);
  }
  if (url.username !== '' || url.password !== '') return message('urlCredentials', field);
  if (url.hash !== '') return message('urlFragment', field);
  const host = normalizeHost(url.hostname);
  const local = allowLocalHttp && isLoopback(host);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    return message(allowLocalHttp ? 'urlHttpsOrLoopback' : 'urlHttpsOnly', field);
  }
  if (!local && isPrivateHost(host)) return message('urlPrivateHost', field);
  return undefined;
}
