import { beforeEach, describe, expect, it } from 'vitest';
import { call, ORIGIN } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { freshTenant } from '../helpers/tenants';

const BASE = '/operations/emailTemplates';

function templateBody(overrides: Record<string, unknown> = {}) {
  return {
    templateKey: 'welcome',
    subject: 'Welcome {{name}}',
    emailTemplateType: 1,
    notificationBody: '<p>Hello</p>',
    culture: 'en-US',
    description: 'Welcome mail',
    ...overrides,
  };
}

let client: TenantClient;
let other: TenantClient;

beforeEach(async () => {
  client = await freshTenant('et');
  other = await freshTenant('et-other');
});

async function createTemplate(overrides: Record<string, unknown> = {}, as: TenantClient = client): Promise<string> {
  const result = await as.call<string>('POST', BASE, { body: templateBody(overrides) });
  expect(result.status, result.text).toBe(201);
  return result.body;
}

describe('create', () => {
  it('answers 201 with the id as body and an absolute Location', async () => {
    const result = await client.call<string>('POST', BASE, { body: templateBody({ templateKey: 'create-1' }) });
    expect(result.status).toBe(201);
    expect(result.body).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.headers.get('location')).toBe(`${ORIGIN}${client.base}${BASE}/${result.body}`);
    const read = await call('GET', new URL(result.headers.get('location') ?? '').pathname, { token: client.token });
    expect(read.status).toBe(200);
  });

  it('accepts the enum by name, case-insensitively, and answers it as a number', async () => {
    const id = await createTemplate({ templateKey: 'create-enum', emailTemplateType: 'text' });
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/${id}`);
    expect(read.body.emailTemplateType).toBe(2);
  });

  it('returns audit fields, version and isActive', async () => {
    const id = await createTemplate({ templateKey: 'create-audit' });
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/${id}`);
    expect(read.body).toMatchObject({
      id,
      templateKey: 'create-audit',
      subject: 'Welcome {{name}}',
      emailTemplateType: 1,
      notificationBody: '<p>Hello</p>',
      culture: 'en-US',
      description: 'Welcome mail',
      isActive: true,
      createdBy: 'tester',
      modifiedBy: 'tester',
      version: 1,
    });
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.body.createdOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('names every invalid field at once', async () => {
    const result = await client.call<Problem>('POST', BASE, {
      body: { templateKey: '', emailTemplateType: 7, culture: 42, notificationBody: 'x', bogus: true },
    });
    expect(result.status).toBe(400);
    expect(result.headers.get('content-type')).toContain('application/problem+json');
    expect(result.body.code).toBe('ValidationFailed');
    const paths = result.body.errors.map((error) => error.path).sort();
    expect(paths).toEqual(['bogus', 'culture', 'emailTemplateType', 'subject', 'templateKey'].sort());
    expect(result.body.requestId).toBe(result.headers.get('x-request-id'));
  });

  it('refuses an unknown culture with UnknownReference', async () => {
    const result = await client.call<Problem>('POST', BASE, { body: templateBody({ templateKey: 'bad-culture', culture: 'xx-XX' }) });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('UnknownReference');
    expect(result.body.errors).toEqual([{ path: 'culture', message: expect.stringContaining('xx-XX') }]);
  });

  it('refuses a duplicate templateKey with DuplicateKey, but another org may reuse it', async () => {
    await createTemplate({ templateKey: 'dup' });
    const again = await client.call<Problem>('POST', BASE, { body: templateBody({ templateKey: 'dup' }) });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('DuplicateKey');
    await createTemplate({ templateKey: 'dup' }, other);
  });

  it('accepts custom attributes at the top level or inside customAttributes', async () => {
    const id = await createTemplate({ templateKey: 'custom-1', custom_channel: 'email', customAttributes: { custom_priority: 3 } });
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/${id}`);
    expect(read.body.custom_channel).toBe('email');
    expect(read.body.custom_priority).toBe(3);
  });

  it('answers 415 for a body that is not JSON and 400 for malformed JSON', async () => {
    const notJson = await client.call<Problem>('POST', BASE, { rawBody: 'templateKey=x', headers: { 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);
    expect(notJson.body.code).toBe('UnsupportedMediaType');
    const malformed = await client.call<Problem>('POST', BASE, {
      rawBody: '{"templateKey":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('ValidationFailed');
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const huge = JSON.stringify(templateBody({ notificationBody: 'x'.repeat(1024 * 1024 + 10) }));
    const result = await client.call<Problem>('POST', BASE, { rawBody: huge, headers: { 'content-type': 'application/json' } });
    expect(result.status).toBe(413);
    expect(result.body.code).toBe('PayloadTooLarge');
  });
});

describe('read', () => {
  it('reads by id and by templateKey', async () => {
    const id = await createTemplate({ templateKey: 'read-1' });
    const byId = await client.call<Record<string, unknown>>('GET', `${BASE}/${id}`);
    const byKey = await client.call<Record<string, unknown>>('GET', `${BASE}/read-1`);
    expect(byId.status).toBe(200);
    expect(byKey.body).toEqual(byId.body);
  });

  it('reads a GUID-shaped templateKey by key when no record has that id', async () => {
    const key = '11111111-2222-4333-8444-555555555555';
    const id = await createTemplate({ templateKey: key });
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/${key}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(id);
  });

  it('prefers the id when a GUID is both an id and another record key', async () => {
    const first = await createTemplate({ templateKey: 'id-first' });
    await createTemplate({ templateKey: first });
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/${first}`);
    expect(read.body.templateKey).toBe('id-first');
  });

  it('answers 404 problem+json for an unknown id or key', async () => {
    const byKey = await client.call<Problem>('GET', `${BASE}/nope`);
    expect(byKey.status).toBe(404);
    expect(byKey.body.code).toBe('RecordNotFound');
    const byId = await client.call<Problem>('GET', `${BASE}/${crypto.randomUUID()}`);
    expect(byId.status).toBe(404);
  });

  it('tolerates a trailing slash', async () => {
    await createTemplate({ templateKey: 'slash' });
    const read = await client.call('GET', `${BASE}/slash/`);
    expect(read.status).toBe(200);
  });
});

describe('attribute updates', () => {
  it('updates each attribute with a bare value or {"value"} and bumps version and ETag', async () => {
    await createTemplate({ templateKey: 'upd-1' });
    const updates: [string, unknown, unknown][] = [
      ['subject', 'New subject', 'New subject'],
      ['description', { value: 'New description' }, 'New description'],
      ['notificationBody', 'Plain body', 'Plain body'],
      ['emailTemplateType', 'Text', 2],
      ['culture', { value: 'pt-PT' }, 'pt-PT'],
    ];
    let version = 1;
    for (const [attribute, body, expected] of updates) {
      const result = await client.call('PUT', `${BASE}/upd-1/${attribute}`, { body });
      expect(result.status, `${attribute}: ${result.text}`).toBe(200);
      expect(result.text).toBe('');
      version += 1;
      expect(result.headers.get('etag')).toBe(`"${version}"`);
      const read = await client.call<Record<string, unknown>>('GET', `${BASE}/upd-1`);
      expect(read.body[attribute]).toBe(expected);
      expect(read.body.version).toBe(version);
    }
  });

  it('clears an optional attribute with null but refuses null for a required one', async () => {
    await createTemplate({ templateKey: 'upd-null' });
    expect(
      (
        await client.call('PUT', `${BASE}/upd-null/description`, {
          body: null,
          rawBody: 'null',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/upd-null`);
    expect(read.body.description).toBeNull();
    const refused = await client.call<Problem>('PUT', `${BASE}/upd-null/subject`, {
      rawBody: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]?.path).toBe('subject');
  });

  it('validates values: bad enum, unknown culture, wrong type', async () => {
    await createTemplate({ templateKey: 'upd-bad' });
    const badEnum = await client.call<Problem>('PUT', `${BASE}/upd-bad/emailTemplateType`, { body: 3 });
    expect(badEnum.status).toBe(400);
    expect(badEnum.body.code).toBe('ValidationFailed');
    const badCulture = await client.call<Problem>('PUT', `${BASE}/upd-bad/culture`, { body: 'zz-ZZ' });
    expect(badCulture.body.code).toBe('UnknownReference');
    const badType = await client.call<Problem>('PUT', `${BASE}/upd-bad/subject`, { body: 12 });
    expect(badType.body.code).toBe('ValidationFailed');
  });

  it('answers 400 RecordNotFound for an unknown key, but 404 for isActive', async () => {
    const subject = await client.call<Problem>('PUT', `${BASE}/missing/subject`, { body: 'x' });
    expect(subject.status).toBe(400);
    expect(subject.body.code).toBe('RecordNotFound');
    const active = await client.call<Problem>('PUT', `${BASE}/missing/isActive`, { body: false });
    expect(active.status).toBe(404);
  });

  it('sets isActive', async () => {
    await createTemplate({ templateKey: 'active' });
    expect((await client.call('PUT', `${BASE}/active/isActive`, { body: false })).status).toBe(200);
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/active`);
    expect(read.body.isActive).toBe(false);
  });

  it('renames the key and refuses a rename onto an existing key', async () => {
    const id = await createTemplate({ templateKey: 'rename-a' });
    await createTemplate({ templateKey: 'rename-b' });
    const clash = await client.call<Problem>('PUT', `${BASE}/rename-a/templateKey`, { body: 'rename-b' });
    expect(clash.status).toBe(400);
    expect(clash.body.code).toBe('DuplicateKey');
    expect((await client.call('PUT', `${BASE}/rename-a/templateKey`, { body: 'rename-c' })).status).toBe(200);
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/rename-c`);
    expect(read.body.id).toBe(id);
    expect((await client.call('GET', `${BASE}/rename-a`)).status).toBe(404);
  });

  it('honours If-Match: 412 on a stale version, 200 on the current one', async () => {
    await createTemplate({ templateKey: 'etag' });
    const stale = await client.call<Problem>('PUT', `${BASE}/etag/subject`, { body: 'x', headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('PreconditionFailed');
    const fresh = await client.call('PUT', `${BASE}/etag/subject`, { body: 'x', headers: { 'if-match': '"1"' } });
    expect(fresh.status).toBe(200);
  });

  it('updates custom attributes with {"value"} or a bare value; 404 for an unknown record', async () => {
    await createTemplate({ templateKey: 'custom-upd', custom_channel: 'email' });
    expect((await client.call('PUT', `${BASE}/custom-upd/custom_channel`, { body: { value: 'sms' } })).status).toBe(200);
    expect((await client.call('PUT', `${BASE}/custom-upd/custom_level`, { body: 5 })).status).toBe(200);
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/custom-upd`);
    expect(read.body).toMatchObject({ custom_channel: 'sms', custom_level: 5 });
    const missing = await client.call<Problem>('PUT', `${BASE}/nobody/custom_channel`, { body: { value: 'x' } });
    expect(missing.status).toBe(404);
  });

  it('answers 404 for an attribute that does not exist', async () => {
    await createTemplate({ templateKey: 'no-attr' });
    const result = await client.call<Problem>('PUT', `${BASE}/no-attr/bogus`, { body: 'x' });
    expect(result.status).toBe(404);
  });
});

describe('custom attribute definitions', () => {
  it('checks names, types and required ones once definitions exist', async () => {
    const scoped = await freshTenant('custom-defs');
    const defined = await scoped.call('PUT', '/referenceData/customAttributes', {
      body: [
        { key: 'emailTemplates.channel', entity: 'emailTemplates', name: 'channel', type: 'string', required: true },
        { key: 'emailTemplates.priority', entity: 'emailTemplates', name: 'priority', type: 'number' },
      ],
    });
    expect(defined.status, defined.text).toBe(200);
    const missing = await scoped.call<Problem>('POST', BASE, { body: templateBody({ templateKey: 'c1' }) });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error) => error.path)).toEqual(['custom_channel']);
    const wrong = await scoped.call<Problem>('POST', BASE, {
      body: templateBody({ templateKey: 'c1', custom_channel: 1, custom_priority: 'high', custom_other: 1 }),
    });
    expect(wrong.body.errors.map((error) => error.path).sort()).toEqual(['custom_channel', 'custom_other', 'custom_priority']);
    const ok = await scoped.call('POST', BASE, { body: templateBody({ templateKey: 'c1', custom_channel: 'email', custom_priority: 2 }) });
    expect(ok.status).toBe(201);
    const badPut = await scoped.call<Problem>('PUT', `${BASE}/c1/custom_priority`, { body: { value: 'x' } });
    expect(badPut.status).toBe(400);
    const unknownPut = await scoped.call<Problem>('PUT', `${BASE}/c1/custom_unknown`, { body: { value: 'x' } });
    expect(unknownPut.status).toBe(400);
  });
});

describe('delete', () => {
  it('deletes by id and by key (204), then 404', async () => {
    const id = await createTemplate({ templateKey: 'del-1' });
    await createTemplate({ templateKey: 'del-2' });
    expect((await client.call('DELETE', `${BASE}/${id}`)).status).toBe(204);
    expect((await client.call('DELETE', `${BASE}/del-2`)).status).toBe(204);
    expect((await client.call('GET', `${BASE}/del-1`)).status).toBe(404);
    expect((await client.call('DELETE', `${BASE}/del-2`)).status).toBe(404);
    expect((await client.call('DELETE', `${BASE}/${id}`)).status).toBe(404);
  });

  it('honours If-Match on delete', async () => {
    await createTemplate({ templateKey: 'del-etag' });
    expect((await client.call('DELETE', `${BASE}/del-etag`, { headers: { 'if-match': '"5"' } })).status).toBe(412);
    expect((await client.call('DELETE', `${BASE}/del-etag`, { headers: { 'if-match': '"1"' } })).status).toBe(204);
  });
});

describe('list (OData)', () => {
  it('lists in creation order with count, select, filter, orderby and paging links', async () => {
    const scoped = await freshTenant('list-org');
    for (const [index, culture] of ['en-US', 'pt-PT', 'en-US', 'de-DE', 'en-US'].entries()) {
      const result = await scoped.call('POST', BASE, { body: templateBody({ templateKey: `list-${index}`, culture }) });
      expect(result.status).toBe(201);
    }
    const all = await scoped.call<{ items: Record<string, unknown>[]; count?: number; nextPageLink?: string }>('GET', `${BASE}/odata`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((item) => item.templateKey)).toEqual(['list-0', 'list-1', 'list-2', 'list-3', 'list-4']);
    expect(all.body.count).toBeUndefined();
    expect(all.body.nextPageLink).toBeUndefined();

    const page = await scoped.call<{ items: Record<string, unknown>[]; count?: number; nextPageLink?: string }>(
      'GET',
      `${BASE}/odata?$filter=Culture eq 'en-US'&$select=TemplateKey, Culture&$top=2&$count=true&$orderby=templateKey desc`,
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body.items).toEqual([
      { templateKey: 'list-4', culture: 'en-US' },
      { templateKey: 'list-2', culture: 'en-US' },
    ]);
    expect(page.body.count).toBe(3);
    expect(page.body.nextPageLink?.startsWith(`${ORIGIN}${scoped.base}/operations/emailTemplates/odata?`)).toBe(true);
    const next = await call<{ items: Record<string, unknown>[]; nextPageLink?: string }>(
      'GET',
      new URL(page.body.nextPageLink ?? '').pathname + new URL(page.body.nextPageLink ?? '').search,
      { token: scoped.token },
    );
    expect(next.body.items).toEqual([{ templateKey: 'list-0', culture: 'en-US' }]);
    expect(next.body.nextPageLink).toBeUndefined();
  });

  it('answers 400 InvalidODataQuery for unknown fields and bad $top', async () => {
    const unknown = await client.call<Problem>('GET', `${BASE}/odata?$filter=nope eq 1`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('InvalidODataQuery');
    expect(unknown.body.detail).toContain('position 1');
    const top = await client.call<Problem>('GET', `${BASE}/odata?$top=1001`);
    expect(top.status).toBe(400);
  });
});

describe('routing', () => {
  it('answers 404 problem+json for unknown paths and 405 with Allow for wrong methods', async () => {
    const unknown = await client.call<Problem>('GET', '/operations/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NotFound');
    // PATCH and PUT of a record are operations of their own (docs/api-reference.md): POST is the wrong method here.
    const wrong = await client.call<Problem>('POST', `${BASE}/x`, { body: {} });
    expect(wrong.status).toBe(405);
    for (const method of ['GET', 'DELETE', 'PATCH', 'PUT']) expect(wrong.headers.get('allow')).toContain(method);
    const root = await call<Problem>('GET', '/nothing-here');
    expect(root.status).toBe(404);
  });
});
