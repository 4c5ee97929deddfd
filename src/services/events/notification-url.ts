/**
 * Which notification URLs a subscription may have: `https://` to a public host. With the development flag
 * (WEBHOOKS_ALLOW_LOCAL_HTTP, turned on by `npm start`), `http://` to a loopback host (127.0.0.1, ::1, localhost) too.
 * Hosts that are, or are named as, private, loopback, link-local, shared or reserved addresses are refused; a host name
 * is looked up too, at subscription, renewal and before every delivery (host-check.ts).
 */

import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';
import { isPrivateAddress, parseIpv4 } from './address-ranges';

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

function isLoopback(host: string): boolean {
  const v4 = parseIpv4(host);
  return host === 'localhost' || host === '[::1]' || (v4 !== undefined && v4 >>> 24 === 127);
}

/** True when the host names a non-public address (an IP literal in those ranges, or a local name). */
export function isPrivateHost(host: string): boolean {
  return isPrivateAddress(host) ?? (LOCAL_NAMES.test(host) || !host.includes('.'));
}

/**
 * Whether the URL's host is a name whose addresses must be looked up (src/services/events/host-check.ts): every host but
 * IP literals (judged as written) and, under the development flag, the loopback hosts http:// may use.
 */
export function needsResolution(url: URL, allowLocalHttp: boolean): boolean {
  return isPrivateAddress(url.hostname) === undefined && !(allowLocalHttp && isLoopback(url.hostname));
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
  const local = allowLocalHttp && isLoopback(url.hostname);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    return message(allowLocalHttp ? 'urlHttpsOrLoopback' : 'urlHttpsOnly', field);
  }
  if (!local && isPrivateHost(url.hostname)) return message('urlPrivateHost', field);
  return undefined;
}
