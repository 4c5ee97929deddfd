/**
 * Idempotency-Key on every POST that creates or changes (issue 13): a retry with the same key and request replays the
 * first answer and writes nothing; the same key with another request is 422; a key still in flight is 409.
 */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CallResult, Problem, TenantClient } from '../helpers/api';
import { BASE as RATES, createDocument, LOOKUP } from '../helpers/exchange-rates';
import { IMPORTS, registerImport } from '../helpers/imports';
import { kpiReferenceData } from '../helpers/indicators';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant, siblingOrg } from '../helpers/tenants';
import { call, mintToken, tenantClient } from '../helpers/api';
import { API_CLIENTS } from '../helpers/identity';
import type { ApiClientAnswer } from '../helpers/identity';
import { computeStoredKey, describeCaller } from '../../src/idempotency/seal';

const TEMPLATES = '/operations/emailTemplates';
const INDICATORS = '/maintenance/indicators';

let client: TenantClient;
let keys = 0;

beforeEach(async () => {
  client = await freshTenant('idem');
  await seedRouteReferenceData(client);
  await kpiReferenceData(client);
});

function newKey(): string {
  keys += 1;
  return `key-${keys}-${crypto.randomUUID()}`;
}

function template(key: string): Record<string, unknown> {
  return { templateKey: key, subject: 'Hello', emailTemplateType: 1, notificationBody: '<p>Hi</p>', culture: 'en-US' };
}

async function post(path: string, key: string, body?: unknown): Promise<CallResult> {
  return client.call('POST', path, { headers: { 'idempotency-key': key }, ...(body === undefined ? {} : { body }) });
}

async function countRows(table: string): Promise<number> {
  const row = await (
    await openClientD1(client)
  )
    .prepare(`select count(*) as n from ${table} where tenant_key = ? and org_key = ?`)
    .bind(client.tenant, client.org)
    .first<{ n: number }>();
  return Number(row?.n);
}

/** Sends the request twice with one key: the second answer is the first one again, marked as replayed. */
async function expectReplayed(path: string, body?: unknown): Promise<[CallResult, CallResult]> {
  const key = newKey();
  const first = await post(path, key, body);
  expect(first.status, first.text).toBeLessThan(300);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const again = await post(path, key, body);
  expect(again.status).toBe(first.status);
  expect(again.text).toBe(first.text);
  expect(again.headers.get('location')).toBe(first.headers.get('location'));
  expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  return [first, again];
}

describe('replays', () => {
  it('replays a create (201, the id, Location) and creates one record', async () => {
    const before = await countRows('email_templates');
    const [first] = await expectReplayed(TEMPLATES, template('replayed'));
    expect(first.status).toBe(201);
    expect(await countRows('email_templates')).toBe(before + 1);
  });

  it('replays membership changes, rate line inserts, measurements, changeDataImport, recalculation and revertImportFile', async () => {
    await createRoute(client);
    const [membership] = await expectReplayed(`${ROUTES}/R1/locations/add`, ['L1']);
    expect((await client.call<{ version: number }>('GET', `${ROUTES}/C1/R1`)).body.version).toBe(
      Number(membership.headers.get('etag')?.replace(/"/g, '')),
    );

    await createDocument(client, 1, '2026-01-01', [['EUR', 'USD', '1.1']]);
    await expectReplayed(`${RATES}/1/exchangeRateDocumentRates`, { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: 0.9 });
    expect((await client.call<{ exchangeRateDocumentRates: unknown[] }>('GET', `${RATES}/1`)).body.exchangeRateDocumentRates).toHaveLength(
      2,
    );

    const measurements = await countRows('kpi_measurements');
    await expectReplayed(`${INDICATORS}/measurements`, [{ company: 'ACME-PT', code: 'COST', date: '2026-01-15', value: 10 }]);
    expect(await countRows('kpi_measurements')).toBe(measurements + 1);
    await expectReplayed(`${INDICATORS}/assetsRecalculateKPIs/default`);

    const id = await registerImport(client);
    await expectReplayed(`${IMPORTS}/changeDataImport`, { importId: id, importDataState: 'Processing', detailLog: '10%' });
    await expectReplayed(`${IMPORTS}/changeDataImport`, { importId: id, importDataState: 'Succeeded' });
    const history = await (
      await openClientD1(client)
    )
      .prepare(`select count(*) as n from import_data_info_changes where import_id = ?`)
      .bind(id)
      .first<{ n: number }>();
    expect(Number(history?.n)).toBe(3);
    const [reverted] = await expectReplayed(`${IMPORTS}/revertImportFile`, { templateKey: 'customers' });
    expect((reverted.body as { revertedTypeMessage: number }).revertedTypeMessage).toBe(1);
  });

  it('keys are per tenant/org: another org may use the same key for its own request', async () => {
    const key = newKey();
    expect((await post(TEMPLATES, key, template('mine'))).status).toBe(201);
    const other = await siblingOrg(client);
    const theirs = await other.call('POST', TEMPLATES, { headers: { 'idempotency-key': key }, body: template('theirs') });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('refusals', () => {
  it('answers 422 IdempotencyKeyReused for the same key with another body or path, and writes nothing', async () => {
    const key = newKey();
    expect((await post(TEMPLATES, key, template('first'))).status).toBe(201);
    const before = await countRows('email_templates');
    for (const [path, body] of [
      [TEMPLATES, template('second')],
      [`${INDICATORS}/measurements`, []],
    ] as const) {
      const reused = await post(path, key, body);
      expect(reused.status, reused.text).toBe(422);
      expect((reused.body as Problem).code).toBe('IdempotencyKeyReused');
      expect((reused.body as Problem).errors.map((error) => error.path)).toEqual(['Idempotency-Key']);
    }
    expect(await countRows('email_templates')).toBe(before);
  });

  it('answers 409 IdempotencyKeyInUse while the first request with the key is in flight', async () => {
    const key = newKey();
    const body = JSON.stringify(template('in-flight'));
    const path = `${client.base}${TEMPLATES}`;
    const data = new TextEncoder().encode(`POST ${path}\n${body}`);
    const fingerprint = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', data)), (byte) =>
      byte.toString(16).padStart(2, '0'),
    ).join('');
    const stub = env.COORDINATOR.get(env.COORDINATOR.idFromName(`${client.tenant}/${client.org}`));
    // Keys are stored per caller (src/idempotency/seal.ts): the test client's token (sub tester, admin, its org).
    const caller = describeCaller({
      subject: 'tester',
      scopes: new Set(['application', 'admin']),
      orgs: [`${client.tenant}/${client.org}`],
    });
    const command = { tenantKey: client.tenant, orgKey: client.org, key: await computeStoredKey(caller, key), fingerprint };
    expect(await stub.handle({ type: 'idempotency.begin', ...command })).toEqual({ status: 'started' });
    const busy = await client.call('POST', TEMPLATES, {
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      rawBody: body,
    });
    expect(busy.status, busy.text).toBe(409);
    expect((busy.body as Problem).code).toBe('IdempotencyKeyInUse');
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await stub.handle({ type: 'idempotency.release', ...command })).toBe(true);
    const done = await client.call('POST', TEMPLATES, {
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      rawBody: body,
    });
    expect(done.status, done.text).toBe(201);
  });

  it('creates once when identical requests race: the others are replays or 409', async () => {
    const key = newKey();
    const before = await countRows('email_templates');
    const results = await Promise.all(Array.from({ length: 20 }, () => post(TEMPLATES, key, template('raced'))));
    const fresh = results.filter((result) => result.status === 201 && result.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const result of results) expect([201, 409]).toContain(result.status);
    expect(await countRows('email_templates')).toBe(before + 1);
  });

  it('frees the key of a refused request (4xx): the corrected request goes through', async () => {
    const key = newKey();
    const refused = await post(TEMPLATES, key, { ...template('fixed'), culture: 'xx-XX' });
    expect(refused.status).toBe(400);
    const again = await post(TEMPLATES, key, { ...template('fixed'), culture: 'xx-XX' });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await post(TEMPLATES, key, template('fixed'))).status).toBe(201);
  });

  it('refuses a malformed key, naming the header', async () => {
    for (const bad of ['', '"unterminated', 'é', 'x'.repeat(256)]) {
      const result = await client.call('POST', TEMPLATES, { headers: { 'idempotency-key': bad }, body: template('bad-key') });
      expect(result.status, bad).toBe(400);
      expect((result.body as Problem).errors.map((error) => error.path)).toEqual(['Idempotency-Key']);
    }
  });

  it('ignores the header on lookups (POSTs that only read)', async () => {
    await createDocument(client, 1, '2026-01-01', [
      ['EUR', 'USD', '1.1'],
      ['EUR', 'GBP', '0.9'],
    ]);
    const key = newKey();
    for (const to of ['USD', 'GBP']) {
      const result = await client.call('POST', LOOKUP, {
        headers: { 'idempotency-key': key },
        body: { currencyFromKey: 'EUR', currencyToKey: to },
      });
      expect(result.status, result.text).toBe(200);
      expect(result.headers.get('idempotent-replayed')).toBeNull();
    }
  });
});

describe('keys are per caller', () => {
  it('another subject with the same key and body runs its own request and never sees the first answer', async () => {
    const key = newKey();
    const body = { name: 'Shared key', orgs: [client.org] };
    const first = await client.call<ApiClientAnswer>('POST', API_CLIENTS, { headers: { 'idempotency-key': key }, body });
    expect(first.status, first.text).toBe(201);
    const replay = await client.call<ApiClientAnswer>('POST', API_CLIENTS, { headers: { 'idempotency-key': key }, body });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // The same caller gets its answer back, secret included (sealed for it in storage).
    expect(replay.body.clientSecret).toBe(first.body.clientSecret);
    expect(replay.body.clientId).toBe(first.body.clientId);
    const otherToken = await mintToken({ tenant: client.tenant, org: client.org, scope: 'application admin', sub: 'someone-else' });
    const theirs = await call<ApiClientAnswer>('POST', `${client.base}${API_CLIENTS}`, {
      token: otherToken,
      headers: { 'idempotency-key': key },
      body,
    });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.clientId).not.toBe(first.body.clientId);
    expect(theirs.body.clientSecret).not.toBe(first.body.clientSecret);
  });

  it('a narrower token of the same subject does not replay a wider create: its own request is authorized (403)', async () => {
    const key = newKey();
    const wide = await tenantClient(client.tenant, client.org, 'application admin', [`${client.tenant}/*`]);
    const body = { name: 'Tenant-wide', orgs: ['*'] };
    const created = await wide.call<ApiClientAnswer>('POST', API_CLIENTS, { headers: { 'idempotency-key': key }, body });
    expect(created.status, created.text).toBe(201);
    const narrow = await client.call<Problem>('POST', API_CLIENTS, { headers: { 'idempotency-key': key }, body });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('idempotent-replayed')).toBeNull();
    expect(JSON.stringify(narrow.body)).not.toContain(created.body.clientSecret);
  });
});
