/**
 * Atomic groups of `$batch` (issue 28): the requests of one `atomicityGroup` (or of the whole batch with
 * `Isolation: snapshot`) commit together, as one D1 batch, or not at all: when one fails it answers its own error, the
 * others 424, and nothing of the group is written (no record, no change event). Inside a group every request is
 * answered as alone and reads by id or key what the ones before it wrote.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { sendBatch, templateBody } from '../helpers/batch';
import type { BatchAnswer, BatchEntry } from '../helpers/batch';
import { readAllChanges } from '../helpers/events';
import { API_CLIENTS } from '../helpers/identity';
import { IMPORTS } from '../helpers/imports';
import { ROUTES, routeBody, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = 'operations/emailTemplates';
const DOCUMENTS = '/businessCore/exchangeRatesDocuments';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('batch-groups');
});

function statusesOf(responses: readonly BatchAnswer[]): number[] {
  return responses.map((response) => response.status);
}

async function readTemplate(key: string, target: TenantClient = client) {
  return target.call<Record<string, unknown>>('GET', `/${TEMPLATES}/${key}`);
}

async function changedKeys(target: TenantClient = client): Promise<string[]> {
  return (await readAllChanges(target)).map((item) => `${item.changeType}:${item.key}`);
}

describe('an atomic group commits every request together', () => {
  it('creates, then updates and reads the record it created ($1), answered as alone (Location, ETag, bodies)', async () => {
    const answer = await sendBatch(client, [
      { id: '1', method: 'POST', url: TEMPLATES, atomicityGroup: 'g1', body: templateBody('a') },
      { id: '2', method: 'PUT', url: `${TEMPLATES}/a/subject`, atomicityGroup: 'g1', dependsOn: ['1'], body: 'New subject' },
      { id: '3', method: 'GET', url: `${TEMPLATES}/$1`, atomicityGroup: 'g1' },
      {
        id: '4',
        method: 'PUT',
        url: `${TEMPLATES}/a/notificationBody`,
        atomicityGroup: 'g1',
        headers: { 'if-match': '"2"' },
        body: '<p>B</p>',
      },
      { id: '5', method: 'GET', url: `${TEMPLATES}/odata?$top=5` },
    ]);
    expect(answer.status).toBe(200);
    const [created, subject, read, body, list] = answer.body.responses;
    expect(statusesOf(answer.body.responses)).toEqual([201, 200, 200, 200, 200]);
    expect(created).toMatchObject({ atomicityGroup: 'g1' });
    expect(created?.headers.Location).toBe(`https://api.test${client.base}/${TEMPLATES}/${String(created?.body)}`);
    expect(subject?.headers.ETag).toBe('"2"');
    expect(read?.headers.ETag).toBe('"2"');
    expect(read?.body).toMatchObject({ id: created?.body, templateKey: 'a', subject: 'New subject', version: 2 });
    expect(body?.headers.ETag).toBe('"3"');
    // The request after the group reads what the group committed.
    expect(list?.body).toMatchObject({ items: [{ templateKey: 'a', subject: 'New subject', notificationBody: '<p>B</p>', version: 3 }] });
    const alone = await readTemplate('a');
    expect(alone.headers.get('etag')).toBe('"3"');
    expect(alone.body).toMatchObject({ id: created?.body, subject: 'New subject', notificationBody: '<p>B</p>', version: 3 });
    expect(await changedKeys()).toEqual(['created:a', 'updated:a', 'updated:a']);
  });

  it('changes ten templates together, and a no-op update inside answers 200 without a new version', async () => {
    for (let index = 0; index < 10; index += 1)
      expect((await client.call('POST', `/${TEMPLATES}`, { body: templateBody(`t${index}`) })).status).toBe(201);
    const requests: BatchEntry[] = Array.from({ length: 10 }, (_, index) => ({
      id: `u${index}`,
      method: 'PUT',
      url: `${TEMPLATES}/t${index}/subject`,
      atomicityGroup: 'ten',
      headers: { 'if-match': '"1"' },
      body: `Subject ${index}`,
    }));
    const answer = await sendBatch(client, [
      ...requests,
      { id: 'same', method: 'PUT', url: `${TEMPLATES}/t0/subject`, atomicityGroup: 'ten', body: 'Subject 0' },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([...Array.from({ length: 10 }, () => 200), 200]);
    expect(answer.body.responses.map((response) => response.headers.ETag)).toEqual([...Array.from({ length: 10 }, () => '"2"'), '"2"']);
    for (let index = 0; index < 10; index += 1) {
      expect((await readTemplate(`t${index}`)).body).toMatchObject({ subject: `Subject ${index}`, version: 2 });
    }
  });

  it('with Isolation: snapshot the whole batch is one group (a delete and a create of the same key)', async () => {
    expect((await client.call('POST', `/${TEMPLATES}`, { body: templateBody('old') })).status).toBe(201);
    const answer = await sendBatch(
      client,
      [
        { id: 'del', method: 'DELETE', url: `${TEMPLATES}/old`, headers: { 'if-match': '"1"' } },
        { id: 'gone', method: 'GET', url: `${TEMPLATES}/old`, dependsOn: ['del'] },
        { id: 'new', method: 'POST', url: TEMPLATES, body: templateBody('old', 'Again') },
      ],
      { isolation: 'snapshot' },
    );
    // A GET answering 404 is a failed request: the snapshot fails whole.
    expect(statusesOf(answer.body.responses)).toEqual([424, 404, 424]);
    expect((answer.body.responses[0]?.body as Problem).errors[0]).toMatchObject({ path: 'Isolation' });
    expect((await readTemplate('old')).body).toMatchObject({ subject: 'Hello', version: 1 });

    const replaced = await sendBatch(
      client,
      [
        { id: 'del', method: 'DELETE', url: `${TEMPLATES}/old`, headers: { 'if-match': '"1"' } },
        { id: 'new', method: 'POST', url: TEMPLATES, body: templateBody('old', 'Again') },
        { id: 'read', method: 'GET', url: `${TEMPLATES}/old` },
      ],
      { isolation: 'snapshot' },
    );
    expect(statusesOf(replaced.body.responses)).toEqual([204, 201, 200]);
    expect(replaced.body.responses[2]?.body).toMatchObject({ id: replaced.body.responses[1]?.body, subject: 'Again', version: 1 });
    expect((await readTemplate('old')).body).toMatchObject({ id: replaced.body.responses[1]?.body, subject: 'Again' });
  });

  it('groups and lone requests mix: a group after a lone request, and a request after a group that depends on it', async () => {
    const answer = await sendBatch(client, [
      { id: 'lone', method: 'POST', url: TEMPLATES, body: templateBody('lone') },
      { id: 'g-a', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('ga') },
      { id: 'g-b', method: 'PUT', url: `${TEMPLATES}/lone/subject`, atomicityGroup: 'g', body: 'From the group' },
      { id: 'after', method: 'GET', url: `${TEMPLATES}/ga`, dependsOn: ['g'] },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([201, 201, 200, 200]);
    expect((await readTemplate('lone')).body).toMatchObject({ subject: 'From the group', version: 2 });
  });

  it('writes an exchange rates document, a line of it and an attribute in a group (If-Match on the line-bumped version)', async () => {
    const document = { number: 7, validFrom: '2026-03-01', exchangeRateType: 1, isExternallyManaged: false };
    expect((await client.call('POST', DOCUMENTS, { body: document })).status).toBe(201);
    const answer = await sendBatch(client, [
      {
        id: 'line',
        method: 'POST',
        url: `${DOCUMENTS.slice(1)}/7/exchangeRateDocumentRates`,
        atomicityGroup: 'r',
        body: { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.1 },
      },
      {
        id: 'ext',
        method: 'PUT',
        url: `${DOCUMENTS.slice(1)}/7/externalId`,
        atomicityGroup: 'r',
        headers: { 'if-match': '"2"' },
        body: 'X-7',
      },
      { id: 'read', method: 'GET', url: `${DOCUMENTS.slice(1)}/7`, atomicityGroup: 'r' },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([204, 200, 200]);
    expect(answer.body.responses[1]?.headers.ETag).toBe('"3"');
    expect(answer.body.responses[2]?.body).toMatchObject({ externalId: 'X-7', version: 3 });
    const stored = await client.call<Record<string, unknown>>('GET', `${DOCUMENTS}/7`);
    expect(stored.body).toMatchObject({ externalId: 'X-7', version: 3 });
    expect(stored.body.exchangeRateDocumentRates).toMatchObject([{ fromCurrency: 'EUR', toCurrency: 'USD' }]);
  });

  it('a line write that fails after a document change in the group leaves the document as it was', async () => {
    const document = { number: 8, validFrom: '2026-03-01', exchangeRateType: 1, isExternallyManaged: false };
    expect((await client.call('POST', DOCUMENTS, { body: document })).status).toBe(201);
    const answer = await sendBatch(client, [
      { id: 'ext', method: 'PUT', url: `${DOCUMENTS.slice(1)}/8/externalId`, atomicityGroup: 'r', body: 'X-8' },
      {
        id: 'line',
        method: 'POST',
        url: `${DOCUMENTS.slice(1)}/8/exchangeRateDocumentRates`,
        atomicityGroup: 'r',
        headers: { 'if-match': '"1"' },
        body: { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.1 },
      },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 412]);
    expect((await client.call('GET', `${DOCUMENTS}/8`)).body).toMatchObject({ version: 1, exchangeRateDocumentRates: [] });
  });
});

describe('custom attribute definitions written in a group', () => {
  it('apply to the creates and custom attribute PUTs after them in the group, as alone', async () => {
    const channel = { key: 'emailTemplates.channel', entity: 'emailTemplates', name: 'channel', type: 'string', required: true };
    const answer = await sendBatch(client, [
      { id: 'def', method: 'PUT', url: 'referenceData/customAttributes', atomicityGroup: 'g', body: [channel] },
      { id: 'ok', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: { ...templateBody('with'), custom_channel: 'sms' } },
      { id: 'put', method: 'PUT', url: `${TEMPLATES}/with/custom_channel`, atomicityGroup: 'g', body: 'email' },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([200, 201, 200]);
    expect((await readTemplate('with')).body).toMatchObject({ custom_channel: 'email', version: 2 });

    const urgent = { key: 'emailTemplates.urgent', entity: 'emailTemplates', name: 'urgent', type: 'boolean', required: true };
    const failed = await sendBatch(client, [
      { id: 'def', method: 'PUT', url: 'referenceData/customAttributes', atomicityGroup: 'g', body: [urgent] },
      { id: 'bad', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: { ...templateBody('without'), custom_channel: 'sms' } },
    ]);
    expect(statusesOf(failed.body.responses)).toEqual([424, 400]);
    const definitions = await client.call<{ items: { key: string }[] }>('GET', '/referenceData/customAttributes');
    expect(definitions.body.items.map((item) => item.key)).toEqual(['emailTemplates.channel']);
    expect((await client.call('PUT', '/referenceData/customAttributes', { body: [urgent] })).status).toBe(200);
    const alone = await client.call<Problem>('POST', `/${TEMPLATES}`, { body: { ...templateBody('without'), custom_channel: 'sms' } });
    expect(alone.status).toBe(400);
    expect(failed.body.responses[1]?.body).toMatchObject({ code: alone.body.code, errors: alone.body.errors });
  });
});

describe('an atomic group that fails writes nothing', () => {
  it('a failure in the middle: its own answer, 424 for the others, no record and no change event', async () => {
    const answer = await sendBatch(client, [
      { id: '1', method: 'POST', url: TEMPLATES, atomicityGroup: 'g1', body: templateBody('first') },
      { id: '2', method: 'PUT', url: `${TEMPLATES}/first/subject`, atomicityGroup: 'g1', body: 'Changed' },
      { id: '3', method: 'POST', url: TEMPLATES, atomicityGroup: 'g1', body: { templateKey: 'bad' } },
      { id: '4', method: 'POST', url: TEMPLATES, atomicityGroup: 'g1', body: templateBody('fourth') },
      { id: '5', method: 'POST', url: TEMPLATES, body: templateBody('outside') },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 424, 400, 424, 201]);
    const alone = await client.call<Problem>('POST', `/${TEMPLATES}`, { body: { templateKey: 'bad' } });
    const failed = answer.body.responses[2]?.body as Problem;
    expect(failed.code).toBe(alone.body.code);
    expect(failed.errors.map((error) => error.path)).toEqual(alone.body.errors.map((error) => error.path));
    const dependent = answer.body.responses[0]?.body as Problem;
    expect(dependent).toMatchObject({ code: 'FailedDependency', status: 424 });
    expect(dependent.errors[0]).toMatchObject({ path: 'requests[0].atomicityGroup' });
    expect(dependent.errors[0]?.message).toContain('3');
    expect((await readTemplate('first')).status).toBe(404);
    expect((await readTemplate('fourth')).status).toBe(404);
    expect(await changedKeys()).toEqual(['created:outside']);
  });

  it('a duplicate key refused by the commit is the creating request’s own DuplicateKey, attributed by the database', async () => {
    expect((await client.call('POST', `/${TEMPLATES}`, { body: templateBody('taken') })).status).toBe(201);
    const answer = await sendBatch(client, [
      { id: 'ok', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('fresh') },
      { id: 'dup', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('taken') },
      { id: 'twice', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('fresh2') },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 400, 424]);
    const alone = await client.call<Problem>('POST', `/${TEMPLATES}`, { body: templateBody('taken') });
    expect(answer.body.responses[1]?.body).toMatchObject({ code: 'DuplicateKey', status: alone.status, errors: alone.body.errors });
    expect((await readTemplate('fresh')).status).toBe(404);
    expect(await changedKeys()).toEqual(['created:taken']);
  });

  it('If-Match inside a group: a stale version fails the group with 412, the records keep their versions', async () => {
    expect((await client.call('POST', `/${TEMPLATES}`, { body: templateBody('m') })).status).toBe(201);
    const answer = await sendBatch(client, [
      { id: 'fresh', method: 'PUT', url: `${TEMPLATES}/m/subject`, atomicityGroup: 'g', headers: { 'if-match': '"1"' }, body: 'One' },
      { id: 'stale', method: 'PUT', url: `${TEMPLATES}/m/subject`, atomicityGroup: 'g', headers: { 'if-match': '"1"' }, body: 'Two' },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 412]);
    // The second request saw the first one's version: 2, as it would have alone after it.
    expect(answer.body.responses[1]).toMatchObject({ headers: { ETag: '"2"' }, body: { code: 'PreconditionFailed' } });
    expect((await readTemplate('m')).body).toMatchObject({ subject: 'Hello', version: 1 });
  });

  it('a cross-row rule of the database refuses the group, attributed to the request whose write broke it', async () => {
    await seedRouteReferenceData(client);
    // A create alone first: the route definitions are then cached, so the group's create leaves its rules to the database.
    expect((await client.call('POST', ROUTES, { body: routeBody({ routeKey: 'warm' }) })).status).toBe(201);
    const before = (await readAllChanges(client)).length;
    const answer = await sendBatch(client, [
      { id: 'tpl', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('with-route') },
      {
        id: 'route',
        method: 'POST',
        url: ROUTES.slice(1),
        atomicityGroup: 'g',
        body: routeBody({ routeKey: 'bm', brand: 'B1', brandModel: 'M2' }),
      },
      { id: 'ok', method: 'POST', url: ROUTES.slice(1), atomicityGroup: 'g', body: routeBody({ routeKey: 'fine' }) },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 400, 424]);
    const alone = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'bm', brand: 'B1', brandModel: 'M2' }) });
    expect(alone.status).toBe(400);
    // The same answer as alone: the create's checks, run again once the database refused the group, word it.
    expect(answer.body.responses[1]?.body).toMatchObject({ code: alone.body.code, status: 400, errors: alone.body.errors });
    expect(alone.body.errors.map((error) => error.path)).toEqual(['brandModel']);
    expect((await client.call('GET', `${ROUTES}/C1/fine`)).status).toBe(404);
    expect((await readTemplate('with-route')).status).toBe(404);
    expect((await readAllChanges(client)).length).toBe(before);
  });

  it('an operation whose writes cannot be predicted is refused inside a group (400 naming it); nothing is written', async () => {
    const answer = await sendBatch(client, [
      { id: 'tpl', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('kept-out') },
      { id: 'cli', method: 'POST', url: API_CLIENTS.slice(1), atomicityGroup: 'g', body: { name: 'Sync' } },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 400]);
    const refused = answer.body.responses[1]?.body as Problem;
    expect(refused).toMatchObject({ code: 'ValidationFailed', status: 400 });
    expect(refused.errors[0]).toMatchObject({ path: 'requests[1]' });
    expect(refused.errors[0]?.message).toContain('Request cli');
    expect(refused.errors[0]?.message).toContain('atomic group');
    expect((await readTemplate('kept-out')).status).toBe(404);
    const clients = await client.call<{ items: unknown[] }>('GET', API_CLIENTS);
    expect(clients.body.items).toEqual([]);
    expect(await changedKeys()).toEqual([]);
    // Outside a group the same operation runs.
    const lone = await sendBatch(client, [{ id: 'cli', method: 'POST', url: API_CLIENTS.slice(1), body: { name: 'Sync' } }]);
    expect(statusesOf(lone.body.responses)).toEqual([201]);
  });

  it('a write through the tenant/org coordinator (an import registration) is refused inside a group too; nothing is written', async () => {
    const answer = await sendBatch(
      client,
      [
        { id: 'tpl', method: 'POST', url: TEMPLATES, body: templateBody('with-import') },
        { id: 'imp', method: 'POST', url: IMPORTS.slice(1), body: { importDataTemplate: 'customers' } },
      ],
      { isolation: 'snapshot' },
    );
    expect(statusesOf(answer.body.responses)).toEqual([424, 400]);
    expect((answer.body.responses[1]?.body as Problem).errors[0]).toMatchObject({ path: 'requests[1]' });
    expect((await readTemplate('with-import')).status).toBe(404);
    const imports = await client.call<unknown[]>('GET', `${IMPORTS}/getLastImports?templateId=customers`);
    expect(imports.status, imports.text).toBe(200);
    expect(imports.body).toEqual([]);
    expect(await changedKeys()).toEqual([]);
  });

  it('keeps tenants apart: a group never reads nor writes another tenant/org’s record with the same key', async () => {
    const other = await freshTenant('batch-groups-other');
    expect((await other.call('POST', `/${TEMPLATES}`, { body: templateBody('shared') })).status).toBe(201);
    const answer = await sendBatch(client, [
      { id: 'mine', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('mine') },
      { id: 'theirs', method: 'PUT', url: `${TEMPLATES}/shared/subject`, atomicityGroup: 'g', body: 'Hijacked' },
    ]);
    // As alone: the record does not exist in this tenant/org.
    const alone = await client.call<Problem>('PUT', `/${TEMPLATES}/shared/subject`, { body: 'Hijacked' });
    expect(alone.body.code).toBe('RecordNotFound');
    expect(statusesOf(answer.body.responses)).toEqual([424, alone.status]);
    expect(answer.body.responses[1]?.body).toMatchObject({ code: 'RecordNotFound', errors: alone.body.errors });
    expect((await readTemplate('shared', other)).body).toMatchObject({ subject: 'Hello', version: 1 });
    expect((await readTemplate('mine')).status).toBe(404);
    expect(await changedKeys(other)).toEqual(['created:shared']);
  });
});
