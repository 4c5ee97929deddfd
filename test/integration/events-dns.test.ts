/**
 * The DNS rule of notification URLs at subscription: a host name is looked up (DNS-over-HTTPS, with the test resolver
 * of test/setup/doh-resolver.ts) and refused unless every address is public. The tests' names live under
 * `.hooks.example`, which the test resolver answers and nothing else does: a name that passes the rule goes on to the
 * handshake, which cannot reach it from here (the proof that the DNS rule let it through).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';
import { dnsName, moveToHost, receiverUrl, setDnsRecords, subscribe } from '../helpers/webhooks';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('dns');
});

/** Subscribes `https://<host>/hook`: the 400 problem's single error, which must name notificationUrl. */
async function subscribeRefused(host: string, language = 'en-US'): Promise<string> {
  const result = await client.call<Problem>('POST', '/subscriptions', {
    body: { notificationUrl: `https://${host}/hook`, resource: '*' },
    headers: { 'accept-language': language },
  });
  expect(result.status, result.text).toBe(400);
  expect(result.body.errors.map((error) => error.path)).toEqual(['notificationUrl']);
  return result.body.errors[0]?.message ?? '';
}

describe('notification URL hosts resolved at subscription', () => {
  it('lets a name that resolves to public addresses only through to the handshake', async () => {
    const host = dnsName('public');
    await setDnsRecords(host, { A: ['93.184.216.34', '8.8.8.8'], AAAA: ['2606:2800:220:1:248:1893:25c8:1946'] });
    const text = await subscribeRefused(host);
    expect(text).toMatch(/^The validation request to notificationUrl failed/);
  });

  it('refuses a name with a private A record, naming the address', async () => {
    const host = dnsName('private');
    await setDnsRecords(host, { A: ['10.1.2.3'] });
    expect(await subscribeRefused(host)).toBe(
      `notificationUrl: ${host} resolves to 10.1.2.3, which is not a public address (private, loopback, link-local, shared or reserved): notifications go to public hosts only`,
    );
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const host = dnsName('mixed');
    await setDnsRecords(host, { A: ['8.8.8.8', '100.64.0.9'], AAAA: ['2606:4700::1111'] });
    expect(await subscribeRefused(host)).toContain('resolves to 100.64.0.9');
  });

  it('follows a CNAME chain to a private address', async () => {
    const [first, second, target] = [dnsName('alias1'), dnsName('alias2'), dnsName('target')];
    await setDnsRecords(first, { CNAME: second });
    await setDnsRecords(second, { CNAME: target });
    await setDnsRecords(target, { A: ['192.168.7.7'] });
    expect(await subscribeRefused(first)).toContain(`${first} resolves to 192.168.7.7`);
  });

  it('refuses an IPv4-mapped IPv6 address of a private range, and link-local and unique-local IPv6', async () => {
    for (const address of ['::ffff:10.0.0.1', 'fe80::1', 'fd12:3456::1', '::1', '64:ff9b::a9fe:a9fe']) {
      const host = dnsName('v6');
      await setDnsRecords(host, { A: ['8.8.8.8'], AAAA: [address] });
      expect(await subscribeRefused(host)).toContain(`resolves to ${address}`);
    }
  });

  it('refuses a name the resolver cannot resolve: unreachable resolver, no such name, no address', async () => {
    const down = dnsName('down');
    await setDnsRecords(down, { down: true });
    expect(await subscribeRefused(down)).toMatch(
      new RegExp(`^notificationUrl: the host ${down} could not be resolved \\(the DNS resolver could not be reached`),
    );
    expect(await subscribeRefused(dnsName('missing'))).toMatch(/could not be resolved \(.* does not exist \(NXDOMAIN\)\)/);
    const empty = dnsName('empty');
    await setDnsRecords(empty, {});
    expect(await subscribeRefused(empty)).toContain(`(${empty} has no A or AAAA record)`);
  });

  it('words the refusals in the request language', async () => {
    const host = dnsName('private');
    await setDnsRecords(host, { A: ['169.254.169.254'] });
    expect(await subscribeRefused(host, 'pt-PT')).toContain(`${host} resolve para 169.254.169.254, que não é um endereço público`);
    expect(await subscribeRefused(host, 'es-ES')).toContain(`${host} se resuelve a 169.254.169.254, que no es una dirección pública`);
    expect(await subscribeRefused(dnsName('missing'), 'pt-PT')).toContain('não foi possível resolver o anfitrião');
  });
});

describe('notification URL hosts resolved before each delivery', () => {
  it('does not deliver to a host that turned private after subscribing: the delivery is retried', async () => {
    const subscription = await subscribe(client, receiverUrl('rebind'));
    const host = dnsName('rebind');
    await setDnsRecords(host, { A: ['10.9.9.9'] });
    await moveToHost(client, subscription, host);
    const template = { templateKey: 'dns', subject: 'Hi', emailTemplateType: 1, notificationBody: '<p>x</p>', culture: 'en-US' };
    expect((await client.call('POST', '/operations/emailTemplates', { body: template })).status).toBe(201);
    // The queue's job looks the host up, does not POST, and counts a failed attempt (retried for 24 hours).
    const d1 = await openClientD1(client);
    const read = () =>
      d1.prepare('SELECT attempts, failing_since AS failingSince FROM event_subscriptions WHERE id = ?1').bind(subscription.id).first<{
        attempts: number;
        failingSince: string | null;
      }>();
    const deadline = Date.now() + 10_000;
    while (((await read())?.attempts ?? 0) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await read())?.failingSince).not.toBeNull();
    const delivered = await client.call<{ items: unknown[] }>('GET', `/subscriptions/${subscription.id}/deliveries`);
    expect(delivered.body.items).toEqual([]);
    // The suite retries without delay: deleting the subscription ends them.
    expect((await client.call('DELETE', `/subscriptions/${subscription.id}`)).status).toBe(204);
  });
});
