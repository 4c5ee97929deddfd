import { describe, expect, it } from 'vitest';
import { checkNotificationUrl, hostToResolve, normalizeHost } from '../../src/services/events/notification-url';

describe('notification URL hosts are normalized before every check', () => {
  it('normalizeHost lower-cases and removes one trailing dot', () => {
    expect(normalizeHost('LocalHost.')).toBe('localhost');
    expect(normalizeHost('metadata.google.internal.')).toBe('metadata.google.internal');
    expect(normalizeHost('example.com')).toBe('example.com');
    expect(normalizeHost('example.com..')).toBe('example.com.');
  });

  it('refuses local names written with a trailing dot, with the development flag off and on', () => {
    const alwaysRefused = [
      'https://metadata.google.internal./',
      'https://METADATA.GOOGLE.INTERNAL./',
      'https://app.localhost./',
      'https://printer.local./',
      'https://intranet./',
      'https://localhost../',
      'https://a..example.com/',
      'https://10.0.0.1./',
      'https://169.254.169.254./latest',
    ];
    for (const url of [...alwaysRefused, 'https://localhost./', 'https://LOCALHOST./', 'https://localhost/']) {
      expect(checkNotificationUrl(url, false), url).toMatchObject({ key: 'urlPrivateHost' });
    }
    for (const url of alwaysRefused) expect(checkNotificationUrl(url, true), url).toMatchObject({ key: 'urlPrivateHost' });
    // Under the development flag `localhost.` is the loopback host `localhost` is (http:// allowed, nothing resolved).
    expect(checkNotificationUrl('http://localhost./hook', true)).toBeUndefined();
    expect(hostToResolve(new URL('http://localhost./hook'), true)).toBeUndefined();
    expect(checkNotificationUrl('http://localhost./hook', false)).toMatchObject({ key: 'urlHttpsOnly' });
  });

  it('looks up the normalized name', () => {
    expect(hostToResolve(new URL('https://Hooks.Example.COM./x'), false)).toBe('hooks.example.com');
    expect(hostToResolve(new URL('https://93.184.216.34/x'), false)).toBeUndefined();
    expect(hostToResolve(new URL('https://localhost./x'), false)).toBe('localhost');
  });
});
