/**
 * `$batch` (issue 28): requests run in order through the application's own pipeline, one answer each; `dependsOn` and
 * `$<id>`; a malformed batch is refused whole (400 naming the request id and field) and nothing runs.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { call, mintToken } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { sendBatch, templateBody } from '../helpers/batch';
import type { BatchEntry } from '../helpers/batch';
import { freshTenant, siblingOrg } from '../helpers/tenants';

const TEMPLATES = 'operations/emailTemplates';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('batch');
});

async function countTemplates(target: TenantClient = client): Promise<number> {
  const list = await target.call<{ items: unknown[] }>('GET', `/${TEMPLATES}/odata`);
  return list.body.items.length;
}

describe('$batch runs every request as if sent alone', () => {
  it('answers the issue example in order: create, PUT on it, OData list (Location, ETag, bodies)', async () => {
    const answer = await sendBatch(client, [
      { id: '1', method: 'POST', url: TEMPLATES, headers: { 'content-type': 'application/json' }, body: templateBody('a') },
      { id: '2', method: 'PUT', url: `${TEMPLATES}/a/subject`, dependsOn: ['1'], body: 'New subject' },
      { id: '3', method: 'GET', url: `${TEMPLATES}/odata?$top=5` },
    ]);
    expect(answer.status).toBe(200);
    const [created, put, list] = answer.body.responses;
    expect(answer.body.responses.map((response) => [response.id, response.status])).toEqual([
      ['1', 201],
      ['2', 200],
      ['3', 200],
    ]);
    expect(created?.headers.Location).toBe(`https://api.test${client.base}/${TEMPLATES}/${String(created?.body)}`);
    expect(put?.headers.ETag).toBe('"2"');
    expect(list?.body).toMatchObject({ items: [{ templateKey: 'a', subject: 'New subject' }] });
    const alone = await client.call<Record<string, unknown>>('GET', `/${TEMPLATES}/a`);
    expect(alone.body).toMatchObject({ id: created?.body, subject: 'New subject', version: 2 });
  });

  it('replaces $<id> in a later url path and body string by the created record id; $<id> alone is its Location', async () => {
    const answer = await sendBatch(client, [
      { id: 'tpl', method: 'POST', url: TEMPLATES, body: templateBody('ref') },
      { id: 'read', method: 'GET', url: `${TEMPLATES}/$tpl` },
      { id: 'subject', method: 'PUT', url: `${TEMPLATES}/ref/subject`, body: '$tpl' },
      { id: 'again', method: 'GET', url: '$tpl' },
      { id: 'gone', method: 'DELETE', url: '$tpl' },
    ]);
    const [created, read, subject, again, gone] = answer.body.responses;
    expect([created, read, subject, again, gone].map((response) => response?.status)).toEqual([201, 200, 200, 200, 204]);
    expect(read?.body).toMatchObject({ id: created?.body, templateKey: 'ref' });
    expect(again?.body).toMatchObject({ id: created?.body, subject: created?.body });
    expect((await client.call('GET', `/${TEMPLATES}/ref`)).status).toBe(404);
  });

  it('answers 424 for a request whose dependsOn (or $<id>) failed, and runs independent ones', async () => {
    const answer = await sendBatch(client, [
      { id: 'bad', method: 'POST', url: TEMPLATES, body: { templateKey: 'x' } },
      { id: 'after', method: 'PUT', url: `${TEMPLATES}/x/subject`, dependsOn: ['bad'], body: 'S' },
      { id: 'uses', method: 'GET', url: `${TEMPLATES}/$bad` },
      { id: 'free', method: 'POST', url: TEMPLATES, body: templateBody('free') },
      { id: 'chained', method: 'GET', url: `${TEMPLATES}/free`, dependsOn: ['free'] },
    ]);
    const statuses = answer.body.responses.map((response) => response.status);
    expect(statuses).toEqual([400, 424, 424, 201, 200]);
    const failed = answer.body.responses[1]?.body as Problem;
    expect(failed).toMatchObject({ code: 'FailedDependency', status: 424 });
    expect(failed.errors[0]).toMatchObject({ path: 'requests[1].dependsOn' });
    expect(failed.errors[0]?.message).toContain('after');
    expect((answer.body.responses[2]?.body as Problem).errors[0]?.path).toBe('requests[2].url');
    expect((answer.body.responses[0]?.body as Problem).errors.map((error) => error.path)).toContain('subject');
    expect(await countTemplates()).toBe(1);
  });

  it('answers If-Match per request (412 on a stale version), and each request reads what the ones before wrote', async () => {
    const answer = await sendBatch(client, [
      { id: 'c', method: 'POST', url: TEMPLATES, body: templateBody('etag') },
      { id: 'stale', method: 'PUT', url: `${TEMPLATES}/etag/subject`, headers: { 'if-match': '"7"' }, body: 'x' },
      { id: 'fresh', method: 'PUT', url: `${TEMPLATES}/etag/subject`, headers: { 'if-match': '"1"' }, body: 'y' },
      { id: 'gone', method: 'DELETE', url: `${TEMPLATES}/etag`, headers: { 'if-match': '"2"' } },
      { id: 'read', method: 'GET', url: `${TEMPLATES}/etag` },
    ]);
    expect(answer.body.responses.map((response) => response.status)).toEqual([201, 412, 200, 204, 404]);
    expect(answer.body.responses[1]?.body).toMatchObject({ code: 'PreconditionFailed' });
  });

  it("applies the token's scopes per request: an application token gets 403 for an admin operation inside", async () => {
    const scoped = await siblingOrg(client, 'application');
    const answer = await sendBatch(scoped, [
      { id: 'ref', method: 'PUT', url: 'referenceData/tools', body: [{ key: 'T1', description: 'Tool' }] },
      { id: 'tpl', method: 'POST', url: TEMPLATES, body: templateBody('scoped') },
    ]);
    expect(answer.body.responses.map((response) => response.status)).toEqual([403, 201]);
    expect(answer.body.responses[0]?.body).toMatchObject({ code: 'Forbidden' });
  });

  it('takes absolute paths and URLs of the same tenant/org', async () => {
    const answer = await sendBatch(client, [
      { id: 'a', method: 'POST', url: `${client.base}/${TEMPLATES}`, body: templateBody('abs') },
      { id: 'b', method: 'GET', url: `https://api.test${client.base}/${TEMPLATES}/abs` },
    ]);
    expect(answer.body.responses.map((response) => response.status)).toEqual([201, 200]);
  });

  it('answers problem+json bodies in the language of the batch, and a refused batch is 403 before anything runs', async () => {
    const answer = await sendBatch(client, [{ id: 'missing', method: 'GET', url: `${TEMPLATES}/nobody` }], { 'accept-language': 'pt-PT' });
    expect(answer.body.responses[0]).toMatchObject({ status: 404, headers: { 'Content-Language': 'pt-PT' } });
    const other = await freshTenant('batch-other');
    const refused = await call('POST', `${client.base}/$batch`, {
      token: other.token,
      body: { requests: [{ id: '1', method: 'POST', url: TEMPLATES, body: templateBody('intruder') }] },
    });
    expect(refused.status).toBe(403);
    expect(await countTemplates()).toBe(0);
  });
});

describe('$batch refuses a malformed batch whole, naming the request id and field; nothing runs', () => {
  const create = (id: string, key = id): BatchEntry => ({ id, method: 'POST', url: TEMPLATES, body: templateBody(key) });

  async function expectRefused(requests: readonly unknown[], path: string, mentions: string, headers: Record<string, string> = {}) {
    const answer = await client.call<Problem>('POST', '/$batch', { body: { requests }, headers });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    const error = answer.body.errors.find((candidate) => candidate.path === path);
    expect(error, JSON.stringify(answer.body.errors)).toBeDefined();
    expect(error?.message).toContain(mentions);
    expect(await countTemplates()).toBe(0);
  }

  it('duplicate ids', () => expectRefused([create('1', 'a'), create('1', 'b')], 'requests[1].id', 'Request 1'));
  it('an unknown dependsOn', () => expectRefused([create('1'), { ...create('2'), dependsOn: ['9'] }], 'requests[1].dependsOn', '9'));
  it('a forward dependsOn (so no cycle can be written)', () =>
    expectRefused(
      [
        { ...create('1'), dependsOn: ['2'] },
        { ...create('2'), dependsOn: ['1'] },
      ],
      'requests[0].dependsOn',
      'Request 1',
    ));
  it('a $<id> of a later request', () =>
    expectRefused([create('1'), { id: '2', method: 'GET', url: `${TEMPLATES}/$3` }, create('3')], 'requests[1].url', '$3'));
  it('a nested $batch', () =>
    expectRefused([create('1'), { id: 'n', method: 'POST', url: '$batch', body: { requests: [] } }], 'requests[1].url', '$batch'));
  it('another tenant/org (absolute path or URL)', async () => {
    await expectRefused(
      [create('1'), { id: 'x', method: 'GET', url: `/api/other/org/${TEMPLATES}` }],
      'requests[1].url',
      'another tenant/org',
    );
    await expectRefused(
      [create('1'), { id: 'y', method: 'GET', url: `https://elsewhere.test${client.base}/${TEMPLATES}` }],
      'requests[1].url',
      'another',
    );
  });
  it('dot segments that would climb out of the tenant/org', () =>
    expectRefused([create('1'), { id: 'd', method: 'GET', url: `../../other/org/${TEMPLATES}` }], 'requests[1].url', 'Request d'));
  it('a malformed entry: method, missing url, unknown property, body on GET, reserved header', async () => {
    await expectRefused([create('1'), { id: '2', method: 'TRACE', url: TEMPLATES }], 'requests[1].method', 'Request 2');
    await expectRefused([create('1'), { id: '2', method: 'GET' }], 'requests[1].url', 'Request 2');
    await expectRefused([create('1'), { id: '2', method: 'GET', url: TEMPLATES, extra: 1 }], 'requests[1].extra', 'Request 2');
    await expectRefused([create('1'), { id: '2', method: 'GET', url: TEMPLATES, body: {} }], 'requests[1].body', 'POST, PUT and PATCH');
    await expectRefused([{ ...create('1'), headers: { 'Idempotency-Key': 'k' } }], 'requests[0].headers.Idempotency-Key', 'Request 1');
    await expectRefused(['nope'], 'requests[0]', 'Request #1');
  });
  it('more than 100 requests, or none', async () => {
    const many = Array.from({ length: 101 }, (_, index) => ({ id: `r${index}`, method: 'GET', url: TEMPLATES }));
    await expectRefused(many, 'requests', '101');
    await expectRefused([], 'requests', '1 to 100');
  });
  it('a malformed atomic group: Isolation other than snapshot, a group split by another request, a group named like a request', async () => {
    // Atomic groups themselves run (test/integration/batch-groups.test.ts); these are refused before anything runs.
    await expectRefused([create('1')], 'Isolation', 'snapshot', { isolation: 'serializable' });
    await expectRefused(
      [{ ...create('1'), atomicityGroup: 'g' }, create('2'), { ...create('3'), atomicityGroup: 'g' }],
      'requests[2].atomicityGroup',
      'adjacent',
    );
    await expectRefused([{ ...create('1'), atomicityGroup: '2' }, create('2')], 'requests[0].atomicityGroup', 'also a request id');
  });
});

describe('$batch and Idempotency-Key', () => {
  it('replays the whole batch answer for the same key, and writes once', async () => {
    const requests = [{ id: '1', method: 'POST', url: TEMPLATES, body: templateBody('idem') }];
    const first = await sendBatch(client, requests, { 'idempotency-key': 'batch-key-1' });
    const second = await sendBatch(client, requests, { 'idempotency-key': 'batch-key-1' });
    expect(first.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await countTemplates()).toBe(1);
  });

  it('the batch token is the only token: a batch without one is 401', async () => {
    const answer = await call('POST', `${client.base}/$batch`, { body: { requests: [{ id: '1', method: 'GET', url: TEMPLATES }] } });
    expect(answer.status).toBe(401);
    expect(await mintToken({ tenant: client.tenant, org: client.org })).toBeTruthy();
  });
});
