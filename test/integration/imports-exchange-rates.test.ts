/**
 * File imports of exchange rates documents (template `exchangeRatesDocuments`: one row per rate line, consecutive rows
 * of one `number` are one document): created as POST /exchangeRatesDocuments creates them with their lines, a failing
 * row skipped, upsert adding lines as the line POST does, a revert, the rate lookups seeing the import, isolation.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { readAllChanges } from '../helpers/events';
import { BASE, createDocument, LOOKUP } from '../helpers/exchange-rates';
import type { Answer, LineResource } from '../helpers/exchange-rates';
import { revertTemplate, uploadCsv, waitForImportEnd } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { freshTenant, siblingOrg } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('imp');
});

type DocumentResource = Record<string, unknown> & { version: number; exchangeRateDocumentRates: LineResource[] };

const HEADER = 'number,validFrom,exchangeRateType,isExternallyManaged,fromCurrency,toCurrency,conversionFactor';
const csv = (...rows: string[]) => `${HEADER}\n${rows.join('\n')}\n`;

async function readDocument(number: number, on: TenantClient = client) {
  return on.call<DocumentResource>('GET', `${BASE}/${number}`);
}

const pairs = (document: DocumentResource) =>
  document.exchangeRateDocumentRates.map((line) => [line.fromCurrency, line.toCurrency, String(line.conversionFactor)]);

describe('exchangeRatesDocuments template', () => {
  it('creates each document with its lines as POST would, skips a failing row, and the lookups see it', async () => {
    const file = csv(
      '10,2026-07-01,Market,false,EUR,USD,1.10',
      '10,2026-07-01,Market,false,EUR,GBP,0.85',
      '10,2026-07-01,Market,false,EUR,ZZZ,2',
      '10,2026-07-02,Market,false,EUR,CHF,0.9',
      '11,2026-08-01,Organization,false,USD,EUR,0.91',
      '11,2026-08-01,Organization,false,USD,EUR,0.92',
    );
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=exchangeRatesDocuments', file)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 6, rowsCreated: 3, rowsFailed: 3 });
    const ten = await readDocument(10);
    expect(ten.status, ten.text).toBe(200);
    expect(ten.body).toMatchObject({ number: 10, exchangeRateType: 1, version: 1 });
    expect(pairs(ten.body)).toEqual([
      ['EUR', 'USD', '1.1'],
      ['EUR', 'GBP', '0.85'],
    ]);
    expect(pairs((await readDocument(11)).body)).toEqual([['USD', 'EUR', '0.91']]);
    const failures = await client.call<string>('GET', `${IMPORTS}/${ended.id}/failures`);
    const lines = failures.text.trim().split('\r\n').slice(1);
    expect(lines.map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['4,toCurrency', '5,validFrom', '7,toCurrency']);
    expect(lines[1]).toContain('the first row of document 10');
    const events = await readAllChanges(client, 'businessCore/exchangeRatesDocuments');
    expect(events.map((event) => [event.changeType, event.key, event.version])).toEqual([
      ['created', '10', 1],
      ['created', '11', 1],
    ]);
    const lookup = await client.call<Answer>('POST', LOOKUP, {
      body: { currencyFromKey: 'EUR', currencyToKey: 'GBP', referencedDate: '2026-07-05' },
    });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body.exchangeRate).toBe(0.85);
  });

  it("keeps a document's rows in one chunk across the chunk boundary (500 rows)", async () => {
    const targets = ['USD', 'GBP', 'CHF', 'JPY', 'SEK', 'NOK', 'DKK'];
    const rows = Array.from({ length: 150 }, (_, document) =>
      targets.map((to, index) => `${100 + document},2026-09-01,Market,false,EUR,${to},1.${index + 1}`),
    ).flat();
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=exchangeRatesDocuments', csv(...rows))).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 1050, rowsCreated: 1050, rowsFailed: 0 });
    const count = await client.call<{ count: number }>('GET', `${BASE}/odata?$count=true&$top=1`);
    expect(count.body.count).toBe(150);
    // File rows 499 to 505 (document 171) straddle the first chunk's end (its 500th record).
    for (const number of [170, 171, 172, 249]) expect((await readDocument(number)).body.exchangeRateDocumentRates).toHaveLength(7);
  });

  it('create mode refuses a stored number; upsert adds the lines a document lacks and refuses a held pair with other values', async () => {
    await createDocument(client, 20, '2026-01-01', [['EUR', 'USD', '1.2']]);
    const refused = await waitForImportEnd(
      client,
      (await uploadCsv(client, 'importDataTemplate=exchangeRatesDocuments', csv('20,2026-01-01,Market,false,EUR,GBP,0.8'))).id,
    );
    expect(refused).toMatchObject({ importDataState: 3, rowsCreated: 0, rowsFailed: 1 });
    const file = csv(
      '20,2026-01-01,Market,false,EUR,USD,1.2',
      '20,2026-01-01,Market,false,EUR,GBP,0.8',
      '21,2026-02-01,Market,false,EUR,USD,1.3',
    );
    const ended = await waitForImportEnd(
      client,
      (await uploadCsv(client, 'importDataTemplate=exchangeRatesDocuments&mode=upsert', file)).id,
    );
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 3, rowsCreated: 1, rowsUpdated: 1, rowsFailed: 0 });
    const twenty = (await readDocument(20)).body;
    expect([pairs(twenty), twenty.version]).toEqual([
      [
        ['EUR', 'USD', '1.2'],
        ['EUR', 'GBP', '0.8'],
      ],
      2,
    ]);
    const held = csv('20,2026-01-01,Market,false,EUR,USD,9.9');
    const clash = await waitForImportEnd(
      client,
      (await uploadCsv(client, 'importDataTemplate=exchangeRatesDocuments&mode=upsert', held)).id,
    );
    expect(clash).toMatchObject({ rowsFailed: 1, rowsUpdated: 0 });
    const revert = await revertTemplate(client, 'exchangeRatesDocuments');
    expect(revert.message).toContain('0 record(s) it created were deleted.');
    const secondRevert = await revertTemplate(client, 'exchangeRatesDocuments');
    expect(secondRevert).toMatchObject({ revertedTypeMessage: 1 });
    expect(secondRevert.message).toContain('1 record(s) it created were deleted, 1 it updated got their values back.');
    const reverted = (await readDocument(20)).body;
    expect([pairs(reverted), reverted.version]).toEqual([[['EUR', 'USD', '1.2']], 3]);
    expect((await readDocument(21)).status).toBe(404);
    const events = (await readAllChanges(client, 'businessCore/exchangeRatesDocuments')).filter((event) => event.key === '20');
    expect(events.map((event) => [event.changeType, event.version, event.changes ?? null])).toEqual([
      ['created', 1, null],
      ['updated', 2, { lines: { added: ['EUR>GBP'] } }],
      ['updated', 3, { lines: { removed: ['EUR>GBP'] } }],
    ]);
  });

  it("upsert sets a stored document's columns that differ with the lines it adds; a revert gives both back", async () => {
    await createDocument(client, 50, '2026-01-01', [['EUR', 'USD', '1.2']], { externalId: 'X1' });
    const file = csv('50,2026-02-01,Market,false,EUR,USD,1.2', '50,2026-02-01,Market,false,EUR,GBP,0.8');
    const ended = await waitForImportEnd(
      client,
      (await uploadCsv(client, 'importDataTemplate=exchangeRatesDocuments&mode=upsert', file)).id,
    );
    expect(ended).toMatchObject({ importDataState: 3, rowsCreated: 0, rowsUpdated: 2, rowsFailed: 0 });
    const updated = (await readDocument(50)).body;
    expect([updated.validFrom, updated.externalId, updated.version, pairs(updated).length]).toEqual([
      '2026-02-01T00:00:00.000Z',
      'X1',
      3,
      2,
    ]);
    const revert = await revertTemplate(client, 'exchangeRatesDocuments');
    expect(revert).toMatchObject({ revertedTypeMessage: 1 });
    expect(revert.message).toContain('0 record(s) it created were deleted, 1 it updated got their values back.');
    const reverted = (await readDocument(50)).body;
    expect([reverted.validFrom, reverted.version, pairs(reverted)]).toEqual(['2026-01-01T00:00:00.000Z', 5, [['EUR', 'USD', '1.2']]]);
    const events = (await readAllChanges(client, 'businessCore/exchangeRatesDocuments')).map((event) => [event.changeType, event.version]);
    expect(events).toEqual([
      ['created', 1],
      ['updated', 2],
      ['updated', 3],
      ['updated', 4],
      ['updated', 5],
    ]);
  });

  it('revert deletes the documents it created, leaves one changed since (Warning); twice: nothing', async () => {
    const file = csv('30,2026-03-01,Market,false,EUR,USD,1.1', '31,2026-03-01,Market,false,EUR,USD,1.2');
    const started = await uploadCsv(client, 'importDataTemplate=exchangeRatesDocuments', file);
    expect(await waitForImportEnd(client, started.id)).toMatchObject({ importDataState: 3, rowsCreated: 2 });
    const changed = await client.call('PUT', `${BASE}/31/externalId`, { body: 'mine' });
    expect(changed.status, changed.text).toBeLessThan(300);
    const revert = await revertTemplate(client, 'exchangeRatesDocuments');
    expect(revert.revertedTypeMessage).toBe(2);
    expect(revert.message).toContain('1 record(s) it created were deleted.');
    expect(revert.message).toContain('1 record(s) changed since the import were left as they are');
    expect((await readDocument(30)).status).toBe(404);
    expect((await readDocument(31)).status).toBe(200);
    const again = await revertTemplate(client, 'exchangeRatesDocuments');
    expect(again.message).toContain('no succeeded import left');
    expect((await readDocument(31)).status).toBe(200);
  });

  it('another tenant or org sees none of the documents, and cannot read the import', async () => {
    const started = await uploadCsv(client, 'importDataTemplate=exchangeRatesDocuments', csv('40,2026-03-01,Market,false,EUR,USD,1.1'));
    expect(await waitForImportEnd(client, started.id)).toMatchObject({ importDataState: 3, rowsCreated: 1 });
    for (const other of [await freshTenant('imp'), await siblingOrg(client)]) {
      expect((await readDocument(40, other)).status).toBe(404);
      expect((await other.call('GET', `${IMPORTS}/${started.id}`)).status).toBe(404);
    }
    expect((await readDocument(40)).status).toBe(200);
  });
});
