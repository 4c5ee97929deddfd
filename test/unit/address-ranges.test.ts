import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/env';
import { isPrivateAddress, parseIpv6 } from '../../src/services/events/address-ranges';

const NOT_PUBLIC = [
  ['0.0.0.0', 'this network'],
  ['10.20.30.40', 'private'],
  ['100.100.1.1', 'shared (CGNAT)'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['198.19.0.1', 'benchmarking'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['0:0:0:0:0:ffff:a00:1', 'IPv4-mapped private, hexadecimal'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback'],
  ['::10.0.0.1', 'IPv4-compatible private'],
  ['64:ff9b::192.168.1.1', 'NAT64 of a private address'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['2002:a00:1::1', '6to4 of a private address'],
  ['fc00::1', 'unique local'],
  ['fdff:ffff::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['febf::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard'],
  ['2001:db8::1', 'documentation'],
  ['2001::1', 'Teredo / IETF special purpose'],
] as const;

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '100.128.0.1',
  '172.32.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
];

describe('isPrivateAddress', () => {
  it.each(NOT_PUBLIC)('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
    if (address.includes(':')) expect(isPrivateAddress(`[${address}]`)).toBe(true);
  });

  it.each(PUBLIC)('accepts %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('answers undefined for what is not an IP address', () => {
    for (const text of ['example.com', 'cafe.be', '1.2.3', '1.2.3.256', ':::1', '1::2::3', '1:2:3:4:5:6:7:8:9', 'g::1']) {
      expect(isPrivateAddress(text), text).toBeUndefined();
    }
  });

  it('expands IPv6 addresses', () => {
    expect(parseIpv6('2001:db8::8:800:200c:417a')).toEqual([0x2001, 0xdb8, 0, 0, 0x8, 0x800, 0x200c, 0x417a]);
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('WEBHOOKS_DNS_RESOLVER_URL', () => {
  const base = { JWT_SECRET: 'a-secret-that-is-at-least-32-characters-long' };

  it("defaults to Cloudflare's resolver and takes https://, or http:// to a loopback host", () => {
    expect(parseConfig({ ...base }).webhooksDnsResolverUrl).toBe('https://cloudflare-dns.com/dns-query');
    expect(parseConfig({ ...base, WEBHOOKS_DNS_RESOLVER_URL: 'https://dns.google/resolve' }).webhooksDnsResolverUrl).toBe(
      'https://dns.google/resolve',
    );
    expect(parseConfig({ ...base, WEBHOOKS_DNS_RESOLVER_URL: 'http://127.0.0.1:5353/dns-query' }).webhooksDnsResolverUrl).toBe(
      'http://127.0.0.1:5353/dns-query',
    );
  });

  it('refuses anything else at start-up', () => {
    for (const value of [
      'cloudflare-dns.com',
      'http://dns.example/dns-query',
      'https://dns.example/q?name=x',
      'https://u:p@dns.example/',
      'ftp://x',
    ]) {
      expect(() => parseConfig({ ...base, WEBHOOKS_DNS_RESOLVER_URL: value }), value).toThrow(/WEBHOOKS_DNS_RESOLVER_URL must be/);
    }
  });
});
