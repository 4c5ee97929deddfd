/** The `$batch` body checks (src/services/batch/parse.ts, target.ts, references.ts): pure, before anything runs. */
import { describe, expect, it } from 'vitest';
import { parseBatch } from '../../src/services/batch/parse';
import type { BatchPlan } from '../../src/services/batch/parse';
import { findBodyReferences, substituteBody, substitutePath } from '../../src/services/batch/references';
import { resolveUrl } from '../../src/services/batch/target';
import { formatMessage } from '../../src/messages/catalogue';

const TARGET = { origin: 'https://api.test', tenantKey: 'acme', orgKey: 'main' };

function plan(requests: unknown[], snapshot = false): BatchPlan {
  const parsed = parseBatch({ requests }, TARGET, snapshot);
  if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
  return parsed.plan;
}

function faults(body: unknown): { path: string; text: string }[] {
  const parsed = parseBatch(body, TARGET, false);
  if (!('errors' in parsed)) throw new Error('expected faults');
  return parsed.errors.map((error) => ({ path: error.path, text: formatMessage(error.message, 'en-US') }));
}

const get = (id: string, url = 'operations/emailTemplates', extra: Record<string, unknown> = {}) => ({ id, method: 'GET', url, ...extra });

describe('resolveUrl', () => {
  it.each([
    ['operations/emailTemplates?$top=5', 'operations/emailTemplates?$top=5'],
    ['/api/acme/main/operations/emailTemplates', 'operations/emailTemplates'],
    ['/API/acme/main/operations/x?$filter=a', 'operations/x?$filter=a'],
    ['https://api.test/api/acme/main/operations/x', 'operations/x'],
    ['/api/acm%65/main/x', 'x'],
  ])('%s -> %s', (url, rest) => expect(resolveUrl(url, TARGET)).toEqual({ url: { rest } }));

  it.each([
    ['/api/other/main/x', 'batchOtherScope'],
    ['/api/acme/other/x', 'batchOtherScope'],
    ['https://evil.test/api/acme/main/x', 'batchOtherScope'],
    ['https://user:pw@api.test/api/acme/main/x', 'batchOtherScope'],
    ['//evil.test/api/acme/main/x', 'batchUrl'],
    ['/health', 'batchUrl'],
    ['../other/main/x', 'batchUrl'],
    ['operations/%2e%2E/x', 'batchUrl'],
    ['operations/./x', 'batchUrl'],
    ['operations\\..\\x', 'batchUrl'],
    ['operations/x#frag', 'batchUrl'],
    ['operations/x y', 'batchUrl'],
    ['operations/%zz', 'batchUrl'],
    ['$batch', 'batchNested'],
    ['%24BATCH', 'batchNested'],
    ['/api/acme/main/$Batch', 'batchNested'],
  ])('%s is refused (%s)', (url, fault) => expect(resolveUrl(url, TARGET)).toEqual({ fault }));

  it('reads a leading $<id> as the Location of that request', () => {
    expect(resolveUrl('$1/subject', TARGET)).toEqual({ url: { base: '1', rest: '/subject' } });
    expect(resolveUrl('$abc', TARGET)).toEqual({ url: { base: 'abc', rest: '' } });
    expect(resolveUrl('$1/../x', TARGET)).toEqual({ fault: 'batchUrl' });
  });
});

describe('references', () => {
  const ids = new Map([
    ['1', 'id-1'],
    ['x', '../..'],
  ]);
  it('replaces $<id> in the path, never in the query', () => {
    expect(substitutePath('a/$1/b?$filter=$1', ids)).toBe('a/id-1/b?$filter=$1');
    expect(substitutePath('a/$12/b', ids)).toBe('a/$12/b');
    expect(substitutePath('a/$x', ids)).toBe('a/%2E%2E%2F%2E%2E');
  });
  it('replaces body strings that are exactly $<id>', () => {
    expect(substituteBody({ a: '$1', b: ['$1', 'pay $1'], c: 1 }, ids)).toEqual({ a: 'id-1', b: ['id-1', 'pay $1'], c: 1 });
    expect(findBodyReferences({ a: ['$1', '$2'] }, new Set(['1']))).toEqual(['1']);
  });
});

describe('parseBatch', () => {
  it('accepts the issue example and reads dependsOn, headers, bodies and references', () => {
    const checked = plan([
      { id: '1', method: 'post', url: 'operations/emailTemplates', headers: { 'Content-Type': 'application/json' }, body: { a: 1 } },
      { id: '2', method: 'PUT', url: 'operations/emailTemplates/$1/subject', dependsOn: ['1'], body: 'New subject' },
      get('3', 'operations/emailTemplates/odata?$top=5'),
    ]);
    expect(checked.requests.map((request) => [request.id, request.method, request.references])).toEqual([
      ['1', 'POST', []],
      ['2', 'PUT', ['1']],
      ['3', 'GET', []],
    ]);
    expect(checked.requests[0]?.headers).toEqual({ 'content-type': 'application/json' });
    expect(checked.requests[1]?.body).toEqual({ json: true, value: 'New subject' });
  });

  it('accepts adjacent atomicity groups and dependsOn naming an earlier group', () => {
    const checked = plan([
      { ...get('1'), atomicityGroup: 'g' },
      { ...get('2'), atomicityGroup: 'g', dependsOn: ['1'] },
      { ...get('3'), dependsOn: ['g'] },
    ]);
    expect(checked.requests.map((request) => request.atomicityGroup ?? null)).toEqual(['g', 'g', null]);
  });

  it('refuses a body that is not a list of 1 to 100 requests', () => {
    expect(faults({})).toEqual([{ path: 'requests', text: 'requests must be a list of 1 to 100 requests' }]);
    expect(faults([])[0]?.path).toBe('requests');
    const many = Array.from({ length: 101 }, (_, index) => get(`r${index}`));
    expect(faults({ requests: many })[0]?.text).toBe('requests holds 101 requests: send at most 100 in one batch');
    expect(faults({ requests: [get('1')], other: 1 })[0]?.path).toBe('other');
  });

  it('names every fault with the request id and field', () => {
    const found = faults({
      requests: [
        get('1'),
        get('1'),
        { id: 'bad id', method: 'GET', url: 'x' },
        { ...get('4'), dependsOn: ['5'] },
        get('5', 'x', { dependsOn: 'nope' }),
        get('6', 'x', { body: {} }),
        { id: '7', method: 'POST', url: 'x', headers: { 'content-type': 'text/plain' }, body: 1 },
        get('8', 'x', { headers: { 'Idempotency-Key': 'k' } }),
        get('9', 'x', { headers: { 'x-a': 'a\nb' } }),
        get('10', '/api/other/main/x'),
        get('11', '$batch'),
        get('12', 'x/$13'),
        get('13'),
        get('14', 'x', { extra: true }),
        'text',
      ],
    });
    expect(found).toEqual([
      { path: 'requests[1].id', text: 'Request 1: requests[1].id is also the id of an earlier request: ids must be unique in a batch' },
      { path: 'requests[2].id', text: "Request #3: requests[2].id must be 1 to 64 letters, digits, '-' or '_'" },
      {
        path: 'requests[3].dependsOn',
        text: 'Request 4: requests[3].dependsOn names 5, which is not an earlier request or atomicity group of this batch',
      },
      {
        path: 'requests[4].dependsOn',
        text: 'Request 5: requests[4].dependsOn must be a list of ids of earlier requests or atomicity groups',
      },
      { path: 'requests[5].body', text: 'Request 6: requests[5].body is only sent with POST, PUT and PATCH' },
      { path: 'requests[6].body', text: 'Request 7: requests[6].body must be a string when its content-type is not JSON' },
      expect.objectContaining({ path: 'requests[7].headers.Idempotency-Key' }),
      expect.objectContaining({ path: 'requests[8].headers.x-a' }),
      expect.objectContaining({ path: 'requests[9].url', text: expect.stringContaining('another tenant/org') }),
      { path: 'requests[10].url', text: 'Request 11: requests[10].url is a $batch: batches cannot be nested' },
      { path: 'requests[11].url', text: 'Request 12: requests[11].url refers to $13, which is not an earlier request of this batch' },
      expect.objectContaining({ path: 'requests[13].extra', text: expect.stringContaining('Request 14') }),
      expect.objectContaining({ path: 'requests[14]', text: expect.stringContaining('Request #15') }),
    ]);
  });

  it('refuses a group that is not adjacent, named like a request, or a dependsOn on its own group', () => {
    const found = faults({
      requests: [
        { ...get('1'), atomicityGroup: 'g' },
        get('2'),
        { ...get('3'), atomicityGroup: 'g' },
        { ...get('4'), atomicityGroup: '1' },
        { ...get('5'), atomicityGroup: 'h' },
        { ...get('6'), atomicityGroup: 'h', dependsOn: ['h'] },
      ],
    });
    expect(found.map((fault) => fault.path)).toEqual(['requests[2].atomicityGroup', 'requests[3].atomicityGroup', 'requests[5].dependsOn']);
  });

  it('accepts every method a client may send (its target answers it), PATCH with a body; refuses others', () => {
    const methods = ['get', 'HEAD', 'post', 'PUT', 'patch', 'DELETE', 'OPTIONS'];
    const checked = plan(methods.map((method, index) => ({ id: `m${index}`, method, url: 'x' })));
    expect(checked.requests.map((request) => request.method)).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
    expect(plan([{ id: 'p', method: 'PATCH', url: 'x', body: { subject: 'S' } }]).requests[0]?.body).toEqual({
      json: true,
      value: { subject: 'S' },
    });
    const found = faults({ requests: ['TRACE', 'CONNECT', 'FETCH'].map((method, index) => ({ id: `m${index}`, method, url: 'x' })) });
    expect(found.map((fault) => fault.text)).toEqual([
      'Request m0: requests[0].method must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'Request m1: requests[1].method must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'Request m2: requests[2].method must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    ]);
  });

  it("drops an entry Authorization equal to the batch's own; another one refuses that entry alone (the plan still runs)", () => {
    const options = { authorization: 'Bearer abc.def' };
    const parsed = parseBatch(
      {
        requests: [
          get('same', 'x', { headers: { Authorization: 'bearer  abc.def', 'x-a': 'a' } }),
          get('other', 'x', { headers: { authorization: 'Bearer zzz' } }),
          get('none'),
        ],
      },
      TARGET,
      false,
      options,
    );
    if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
    const [same, other, none] = parsed.plan.requests;
    expect(same?.headers).toEqual({ 'x-a': 'a' });
    expect(same?.refusal).toBeUndefined();
    expect(none?.refusal).toBeUndefined();
    expect(other?.refusal?.path).toBe('requests[1].headers.authorization');
    expect(formatMessage(other?.refusal?.message ?? { key: 'batchUrl', params: {} }, 'en-US')).toContain(
      "Request other: requests[1].headers.authorization differs from the batch's own Authorization",
    );
  });

  it('resolves urls against the root the batch was sent to; absolute paths of either root of the tenant/org', () => {
    const odata = { ...TARGET, root: 'odata' as const };
    expect(resolveUrl("emailTemplates('a')", odata)).toEqual({ url: { rest: "emailTemplates('a')" } });
    expect(resolveUrl('/odata/acme/main/emailTemplates', odata)).toEqual({ url: { rest: 'emailTemplates' } });
    expect(resolveUrl('/api/acme/main/operations/x', odata)).toEqual({ url: { root: 'api', rest: 'operations/x' } });
    expect(resolveUrl('/ODATA/acme/main/emailTemplates', TARGET)).toEqual({ url: { root: 'odata', rest: 'emailTemplates' } });
    expect(resolveUrl('https://api.test/odata/acme/main/x', TARGET)).toEqual({ url: { root: 'odata', rest: 'x' } });
    expect(resolveUrl('/odata/other/main/x', odata)).toEqual({ fault: 'batchOtherScope' });
    expect(resolveUrl('/odata/acme/main/$batch', odata)).toEqual({ fault: 'batchNested' });
  });

  it('reads Isolation: snapshot into the plan', () => {
    expect(plan([get('1')], true).snapshot).toBe(true);
  });
});
