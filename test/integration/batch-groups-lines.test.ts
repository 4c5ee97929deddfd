/**
 * Rate line writes in an atomic group of `$batch` (issue 28): several line writes of one document in one group, each
 * planned on the lines as the group's earlier writes leave them, committed together (one D1 batch) or not at all.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { sendBatch } from '../helpers/batch';
import type { BatchAnswer } from '../helpers/batch';
import { readAllChanges } from '../helpers/events';
import { BASE } from '../helpers/exchange-rates';
import type { LineResource } from '../helpers/exchange-rates';
import { freshTenant } from '../helpers/tenants';

type DocumentResource = Record<string, unknown> & { exchangeRateDocumentRates: LineResource[]; version: number };

const LINES = `${BASE.slice(1)}/1/exchangeRateDocumentRates`;

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('batch-lines');
  const created = await client.call('POST', BASE, {
    body: {
      number: 1,
      validFrom: '2026-03-01',
      exchangeRateType: 1,
      isExternallyManaged: false,
      exchangeRateDocumentRates: [{ fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.08 }],
    },
  });
  expect(created.status, created.text).toBe(201);
});

function statusesOf(responses: readonly BatchAnswer[]): number[] {
  return responses.map((response) => response.status);
}

async function readDocument() {
  return client.call<DocumentResource>('GET', `${BASE}/1`);
}

const pairsOf = (lines: readonly LineResource[]) => lines.map((line) => `${line.fromCurrency}>${line.toCurrency}`);

describe('several line writes of one document in one atomic group', () => {
  it('inserts two lines, updates and sets a custom attribute of a stored one, and reads them inside the group', async () => {
    const lineId = (await readDocument()).body.exchangeRateDocumentRates[0]?.id ?? '';
    const answer = await sendBatch(client, [
      {
        id: 'gbp',
        method: 'POST',
        url: LINES,
        atomicityGroup: 'g',
        body: { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: '0.85' },
      },
      {
        id: 'chf',
        method: 'POST',
        url: LINES,
        atomicityGroup: 'g',
        body: { fromCurrency: 'EUR', toCurrency: 'CHF', conversionFactor: '0.95' },
      },
      {
        id: 'factor',
        method: 'PUT',
        url: `${LINES}/${lineId}/conversionFactor`,
        atomicityGroup: 'g',
        headers: { 'if-match': '"3"' },
        body: '1.10',
      },
      { id: 'same', method: 'PUT', url: `${LINES}/${lineId}/conversionFactor`, atomicityGroup: 'g', body: '1.10' },
      { id: 'note', method: 'PUT', url: `${LINES}/${lineId}/custom_note`, atomicityGroup: 'g', body: { value: 'bank' } },
      { id: 'read', method: 'GET', url: `${BASE.slice(1)}/1`, atomicityGroup: 'g' },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([204, 204, 200, 200, 200, 200]);
    expect(answer.body.responses.map((response) => response.headers.ETag)).toEqual(['"2"', '"3"', '"4"', '"4"', '"5"', '"5"']);
    const inside = answer.body.responses[5]?.body as DocumentResource;
    expect(pairsOf(inside.exchangeRateDocumentRates)).toEqual(['EUR>USD', 'EUR>GBP', 'EUR>CHF']);
    expect(inside.exchangeRateDocumentRates[0]).toMatchObject({ id: lineId, conversionFactor: 1.1, custom_note: 'bank' });
    const stored = await readDocument();
    expect(stored.body.version).toBe(5);
    expect(pairsOf(stored.body.exchangeRateDocumentRates)).toEqual(['EUR>USD', 'EUR>GBP', 'EUR>CHF']);
    expect(stored.body.exchangeRateDocumentRates[0]).toMatchObject({ id: lineId, conversionFactor: 1.1, custom_note: 'bank' });
    expect(inside.exchangeRateDocumentRates.map((line) => line.id)).toEqual(stored.body.exchangeRateDocumentRates.map((line) => line.id));
  });

  it('a line the group deleted is not found by a later write of the group (404, as alone); nothing is written', async () => {
    const lineId = (await readDocument()).body.exchangeRateDocumentRates[0]?.id ?? '';
    const before = (await readAllChanges(client)).length;
    const answer = await sendBatch(client, [
      { id: 'del', method: 'DELETE', url: `${LINES}/${lineId}`, atomicityGroup: 'g' },
      { id: 'put', method: 'PUT', url: `${LINES}/${lineId}/custom_note`, atomicityGroup: 'g', body: 'x' },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 404]);
    expect((await readDocument()).body).toMatchObject({ version: 1, exchangeRateDocumentRates: [{ id: lineId }] });
    expect((await readAllChanges(client)).length).toBe(before);
  });

  it('a pair inserted twice in a group fails the second insert as alone (DuplicateKey); no line is written', async () => {
    const answer = await sendBatch(client, [
      { id: 'a', method: 'POST', url: LINES, atomicityGroup: 'g', body: { fromCurrency: 'EUR', toCurrency: 'JPY', conversionFactor: 160 } },
      { id: 'b', method: 'POST', url: LINES, atomicityGroup: 'g', body: { fromCurrency: 'EUR', toCurrency: 'JPY', conversionFactor: 161 } },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 400]);
    expect((await readDocument()).body).toMatchObject({ version: 1 });
    expect(pairsOf((await readDocument()).body.exchangeRateDocumentRates)).toEqual(['EUR>USD']);
    expect(
      (
        await client.call('POST', `${BASE}/1/exchangeRateDocumentRates`, {
          body: { fromCurrency: 'EUR', toCurrency: 'JPY', conversionFactor: 160 },
        })
      ).status,
    ).toBe(204);
    const alone = await client.call<Problem>('POST', `${BASE}/1/exchangeRateDocumentRates`, {
      body: { fromCurrency: 'EUR', toCurrency: 'JPY', conversionFactor: 161 },
    });
    expect(answer.body.responses[1]?.body).toMatchObject({ code: alone.body.code, status: alone.status, errors: alone.body.errors });
  });
});
