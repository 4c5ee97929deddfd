/**
 * Which notification URLs a subscription may have: `https://` to a public host. With the development flag
 * (WEBHOOKS_ALLOW_LOCAL_HTTP, turned on by `npm start`), `http://` to a loopback host (127.0.0.1, ::1, localhost) too.
 * Hosts that are, or are named as, private, loopback, link-local, shared or reserved addresses are refused.
 */

import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';

/** IPv4 ranges that are not public: this network, private, shared (CGNAT), loopback, link-local, reserved, ... */
const PRIVATE_V4: readonly (readonly [number, number])[] = [
  [0x00000000, 8],
  [0x0a000000, 8],
  [0x64400000, 10],
  [0x7f000000, 8],
  [0xa9fe0000, 16],
  [0xac100000, 12],
  [0xc0000000, 24],
  [0xc0000200, 24],
  [0xc0a80000, 16],
  [0xc6120000, 15],
  [0xc6336400, 24],
  [0xcb007100, 24],
  [0xe0000000, 4],
  [0xf0000000, 4],
];

function parseIpv4(host: string): number | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return undefined;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

function isPrivateIpv4(address: number): boolean {
  return PRIVATE_V4.some(([base, bits]) => Math.floor(address / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
}

/** IPv6 literals (the URL parser has normalised them): loopback, unspecified, unique local, link-local, mapped IPv4. */
function isPrivateIpv6(host: string): boolean {
  const address = host.slice(1, -1).toLowerCase();
  if (address === '::1' || address === '::') return true;
  if (/^f[cd]/.test(address) || /^fe[89ab]/.test(address) || /^ff/.test(address)) return true;
  const mapped = /^::ffff:(.+)$/.exec(address)?.[1];
  if (mapped !== undefined) {
    const dotted = parseIpv4(mapped);
    if (dotted !== undefined) return isPrivateIpv4(dotted);
    const [high = '0', low = '0'] = mapped.split(':');
    return isPrivateIpv4(parseInt(high, 16) * 65536 + parseInt(low, 16));
  }
  return false;
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

function isLoopback(host: string): boolean {
  const v4 = parseIpv4(host);
  return host === 'localhost' || host === '[::1]' || (v4 !== undefined && v4 >>> 24 === 127);
}

/** True when the host names a non-public address (an IP literal in those ranges, or a local name). */
export function isPrivateHost(host: string): boolean {
  if (host.startsWith('[')) return isPrivateIpv6(host);
  const v4 = parseIpv4(host);
  if (v4 !== undefined) return isPrivateIpv4(v4);
  return LOCAL_NAMES.test(host) || !host.includes('.');
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
