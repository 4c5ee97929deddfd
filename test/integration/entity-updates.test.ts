/**
 * PATCH (merge) and PUT (replace) of whole records, derived for every entity: several attributes in one request and
 * one statement, the attribute PUTs' validation and rules, If-Match, one `updated` event naming what changed.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { sendBatch } from '../helpers/batch';
import { readAllChanges } from '../helpers/events';
import { freshTenant, siblingOrg } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';

type Resource = Record<string, unknown> & { id: string; version: number };

const template = {
  templateKey: 'welcome',
  subject: 'Welcome {{name}}',
  emailTemplateType: 1,
  notificationBody: '<p>Hello</p>',
  culture: 'en-US',
  description: 'Welcome mail',
};

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('upd');
});

async function createTemplate(overrides: Record<string, unknown> = {}): Promise<string> {
  const result = await client.call<string>('POST', TEMPLATES, { body: { ...template, ...overrides } });
  expect(result.status, result.text).toBe(201);
  return result.body;
}

function paths(problem: Problem): string[] {
  return problem.errors.map((error) => error.path).sort();
}

describe('PATCH of an email template', () => {
  it('changes several attributes, isActive and custom values at once: one version, one event naming what changed', async () => {
    const id = await createTemplate({ custom_team: 'ops' });
    const patched = await client.call<Resource>('PATCH', `${TEMPLATES}/welcome`, {
      body: { subject: 'Hi {{name}}', description: null, isActive: false, custom_owner: 'ana', culture: 'en-US' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get('etag')).toBe('"2"');
    expect(patched.body).toMatchObject({
      id,
      templateKey: 'welcome',
      subject: 'Hi {{name}}',
      description: null,
      isActive: false,
      custom_team: 'ops',
      custom_owner: 'ana',
      culture: 'en-US',
      version: 2,
    });
    const read = await client.call<Resource>('GET', `${TEMPLATES}/${id}`);
    expect(read.body).toEqual(patched.body);
    const changes = await readAllChanges(client);
    expect(changes.map((change) => [change.changeType, change.version])).toEqual([
      ['created', 1],
      ['updated', 2],
    ]);
    expect(changes[1]?.changes).toEqual({ attributes: ['subject', 'description', 'isActive', 'customAttributes'] });
  });

  it('by id too; Prefer: return=minimal answers 204 with the ETag', async () => {
    const id = await createTemplate();
    const result = await client.call('PATCH', `${TEMPLATES}/${id}`, { body: { subject: 'Hey' }, headers: { prefer: 'return=minimal' } });
    expect(result.status, result.text).toBe(204);
    expect(result.headers.get('etag')).toBe('"2"');
    expect(result.headers.get('preference-applied')).toBe('return=minimal');
    expect(result.text).toBe('');
  });
});

describe('If-Match, validation and what cannot change', () => {
  it('answers 412 with the current ETag for a stale If-Match, and writes with the right one or *', async () => {
    await createTemplate();
    const stale = await client.call<Problem>('PATCH', `${TEMPLATES}/welcome`, { body: { subject: 'A' }, headers: { 'if-match': '"7"' } });
    expect([stale.status, stale.body.code, stale.headers.get('etag')]).toEqual([412, 'PreconditionFailed', '"1"']);
    const right = await client.call<Resource>('PATCH', `${TEMPLATES}/welcome`, { body: { subject: 'A' }, headers: { 'if-match': '"1"' } });
    expect([right.status, right.body.version]).toEqual([200, 2]);
    const any = await client.call<Resource>('PUT', `${TEMPLATES}/welcome`, {
      body: { ...template, subject: 'B' },
      headers: { 'if-match': '*' },
    });
    expect([any.status, any.body.version, any.body.subject]).toEqual([200, 3, 'B']);
    const staleReplace = await client.call<Problem>('PUT', `${TEMPLATES}/welcome`, { body: template, headers: { 'if-match': '"2"' } });
    expect([staleReplace.status, staleReplace.headers.get('etag')]).toEqual([412, '"3"']);
  });

  it("names every bad field in one 400 (the attribute PUTs' messages) and writes nothing", async () => {
    await createTemplate();
    const result = await client.call<Problem>('PATCH', `${TEMPLATES}/welcome`, {
      body: { subject: 'Hi {{', emailTemplateType: 9, templateKey: null, description: 5, colour: 'red', 'custom_bad-name': 1 },
    });
    expect([result.status, result.body.code]).toEqual([400, 'ValidationFailed']);
    expect(paths(result.body)).toEqual(['colour', 'custom_bad-name', 'description', 'emailTemplateType', 'subject', 'templateKey']);
    const attribute = await client.call<Problem>('PUT', `${TEMPLATES}/welcome/emailTemplateType`, { body: 9 });
    expect(result.body.errors.find((error) => error.path === 'emailTemplateType')?.message).toBe(attribute.body.errors[0]?.message);
    const read = await client.call<Resource>('GET', `${TEMPLATES}/welcome`);
    expect([read.body.version, read.body.subject]).toEqual([1, template.subject]);
    expect((await readAllChanges(client)).length).toBe(1);
  });

  it('refuses an unknown reference as the attribute PUT does', async () => {
    await createTemplate();
    const result = await client.call<Problem>('PATCH', `${TEMPLATES}/welcome`, { body: { culture: 'xx-XX', subject: 'S' } });
    expect([result.status, result.body.code, paths(result.body)]).toEqual([400, 'UnknownReference', ['culture']]);
  });

  it('a no-op changes nothing: same version, no event', async () => {
    await createTemplate();
    const result = await client.call<Resource>('PATCH', `${TEMPLATES}/welcome`, { body: { subject: template.subject, culture: 'en-us' } });
    expect([result.status, result.headers.get('etag'), result.body.version]).toEqual([200, '"1"', 1]);
    const empty = await client.call<Resource>('PATCH', `${TEMPLATES}/welcome`, { body: {} });
    expect([empty.status, empty.body.version]).toEqual([200, 1]);
    expect((await readAllChanges(client)).map((change) => change.changeType)).toEqual(['created']);
  });

  it('accepts the entity as read back (annotations, read-only properties as stored); refuses changed read-only ones', async () => {
    await createTemplate();
    const read = await client.call<Resource>('GET', `${TEMPLATES}/welcome`);
    const whole = { '@odata.etag': 'W/"1"', ...read.body, description: 'Sent back whole' };
    const result = await client.call<Resource>('PATCH', `${TEMPLATES}/welcome`, { body: whole });
    expect([result.status, result.body.description, result.body.version], result.text).toEqual([200, 'Sent back whole', 2]);
    const changed = await client.call<Problem>('PATCH', `${TEMPLATES}/welcome`, {
      body: { ...result.body, id: crypto.randomUUID(), version: 1, createdBy: 'someone', subject: 'Not written' },
    });
    expect([changed.status, paths(changed.body)]).toEqual([400, ['createdBy', 'id', 'version']]);
    expect((await client.call<Resource>('GET', `${TEMPLATES}/welcome`)).body.subject).toBe(template.subject);
  });

  it('changes the key: the record answers at its new key, the event carries it; a taken key is 400 DuplicateKey', async () => {
    const id = await createTemplate();
    await createTemplate({ templateKey: 'taken' });
    const renamed = await client.call<Resource>('PATCH', `${TEMPLATES}/welcome`, { body: { templateKey: 'hello', subject: 'Hello' } });
    expect([renamed.status, renamed.body.templateKey, renamed.body.id]).toEqual([200, 'hello', id]);
    expect((await client.call('GET', `${TEMPLATES}/hello`)).status).toBe(200);
    expect((await client.call('GET', `${TEMPLATES}/welcome`)).status).toBe(404);
    const events = await readAllChanges(client);
    expect(events.at(-1)).toMatchObject({ changeType: 'updated', key: 'hello', changes: { attributes: ['templateKey', 'subject'] } });
    const duplicate = await client.call<Problem>('PATCH', `${TEMPLATES}/hello`, { body: { templateKey: 'taken' } });
    expect([duplicate.status, duplicate.body.code]).toEqual([400, 'DuplicateKey']);
  });

  it('answers 404 for a record that does not exist, by key and by id', async () => {
    for (const segment of ['nobody', crypto.randomUUID()]) {
      const result = await client.call<Problem>('PATCH', `${TEMPLATES}/${segment}`, { body: { subject: 'S' } });
      expect([result.status, result.body.code]).toEqual([404, 'RecordNotFound']);
    }
  });
});

describe('create bodies', () => {
  it('ignore instance annotations, as PATCH and PUT do', async () => {
    const created = await client.call<string>('POST', TEMPLATES, {
      body: { '@odata.type': '#Erp.EmailTemplate', ...template, 'subject@odata.type': '#String' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await client.call<Resource>('GET', `${TEMPLATES}/welcome`)).body.subject).toBe(template.subject);
  });
});

describe('PUT of an email template (replace)', () => {
  it('sets every field: absent optional ones null, isActive true, custom values replaced', async () => {
    await createTemplate({ custom_team: 'ops' });
    await client.call('PUT', `${TEMPLATES}/welcome/isActive`, { body: false });
    const rest: Record<string, unknown> = { ...template };
    delete rest.description;
    const replaced = await client.call<Resource>('PUT', `${TEMPLATES}/welcome`, { body: { ...rest, subject: 'New', custom_owner: 'ana' } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ subject: 'New', description: null, isActive: true, custom_owner: 'ana', version: 3 });
    expect(replaced.body).not.toHaveProperty('custom_team');
  });

  it('names every required field that is missing', async () => {
    await createTemplate();
    const result = await client.call<Problem>('PUT', `${TEMPLATES}/welcome`, { body: { subject: 'Only' } });
    expect([result.status, paths(result.body)]).toEqual([400, ['culture', 'emailTemplateType', 'notificationBody', 'templateKey']]);
  });
});

describe('tenant isolation', () => {
  it("another org, or another tenant, sending the owner's key or id gets 404 and changes nothing", async () => {
    const id = await createTemplate();
    for (const other of [await siblingOrg(client), await freshTenant('upd-other')]) {
      for (const segment of ['welcome', id]) {
        const patched = await other.call<Problem>('PATCH', `${TEMPLATES}/${segment}`, { body: { subject: 'Theirs' } });
        expect(patched.status).toBe(404);
        const replaced = await other.call<Problem>('PUT', `${TEMPLATES}/${segment}`, { body: template });
        expect(replaced.status).toBe(404);
      }
      // Its token on the owner's path is refused before anything is read.
      const foreign = await call<Problem>('PATCH', `${client.base}${TEMPLATES}/welcome`, { token: other.token, body: { subject: 'X' } });
      expect([foreign.status, foreign.body.code]).toEqual([403, 'Forbidden']);
    }
    const read = await client.call<Resource>('GET', `${TEMPLATES}/welcome`);
    expect([read.body.subject, read.body.version]).toEqual([template.subject, 1]);
  });
});

describe('in an atomic group of $batch (PUT entries)', () => {
  it('replaces records created and changed earlier in the group, custom values included, committed together', async () => {
    const answer = await sendBatch(client, [
      { id: '1', method: 'POST', url: 'operations/emailTemplates', atomicityGroup: 'g', body: { ...template, custom_team: 'ops' } },
      { id: '2', method: 'PUT', url: 'operations/emailTemplates/welcome/subject', atomicityGroup: 'g', dependsOn: ['1'], body: 'Second' },
      {
        id: '3',
        method: 'PUT',
        url: 'operations/emailTemplates/$1',
        atomicityGroup: 'g',
        dependsOn: ['2'],
        headers: { 'if-match': '"2"' },
        body: { ...template, subject: 'Third', custom_owner: 'ana' },
      },
    ]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.responses.map((response) => response.status)).toEqual([201, 200, 200]);
    expect(answer.body.responses[2]?.body).toMatchObject({ subject: 'Third', custom_owner: 'ana', version: 3 });
    const read = await client.call<Resource>('GET', `${TEMPLATES}/welcome`);
    expect(read.body).toMatchObject({ subject: 'Third', custom_owner: 'ana', version: 3 });
    expect(read.body).not.toHaveProperty('custom_team');
    const events = await readAllChanges(client);
    expect(events.map((event) => [event.changeType, event.version, event.changes ?? null])).toEqual([
      ['created', 1, null],
      ['updated', 2, { attributes: ['subject'] }],
      ['updated', 3, { attributes: ['subject', 'customAttributes'] }],
    ]);
  });

  it('a refused replace refuses the whole group: nothing written', async () => {
    await createTemplate();
    const answer = await sendBatch(client, [
      { id: '1', method: 'PUT', url: 'operations/emailTemplates/welcome', atomicityGroup: 'g', body: { ...template, subject: 'Changed' } },
      {
        id: '2',
        method: 'PUT',
        url: 'operations/emailTemplates/welcome',
        atomicityGroup: 'g',
        body: { ...template, emailTemplateType: 9 },
      },
    ]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.responses.map((response) => response.status)).toEqual([424, 400]);
    const read = await client.call<Resource>('GET', `${TEMPLATES}/welcome`);
    expect([read.body.subject, read.body.version]).toEqual([template.subject, 1]);
  });
});

describe('in an atomic group of $batch (PATCH entries)', () => {
  it('merges into a record created earlier in the group, custom values merged, committed together', async () => {
    const answer = await sendBatch(client, [
      { id: '1', method: 'POST', url: 'operations/emailTemplates', atomicityGroup: 'g', body: { ...template, custom_team: 'ops' } },
      {
        id: '2',
        method: 'PATCH',
        url: 'operations/emailTemplates/$1',
        atomicityGroup: 'g',
        dependsOn: ['1'],
        headers: { 'if-match': '"1"' },
        body: { subject: 'Merged', custom_owner: 'ana' },
      },
    ]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.responses.map((response) => response.status)).toEqual([201, 200]);
    const read = await client.call<Resource>('GET', `${TEMPLATES}/welcome`);
    expect(read.body).toMatchObject({ subject: 'Merged', custom_team: 'ops', custom_owner: 'ana', version: 2 });
    const events = await readAllChanges(client);
    expect(events.map((event) => [event.changeType, event.version, event.changes ?? null])).toEqual([
      ['created', 1, null],
      ['updated', 2, { attributes: ['subject', 'customAttributes'] }],
    ]);
  });

  it('a refused merge refuses the whole group: nothing written', async () => {
    await createTemplate();
    const answer = await sendBatch(client, [
      { id: '1', method: 'PATCH', url: 'operations/emailTemplates/welcome', atomicityGroup: 'g', body: { subject: 'Changed' } },
      { id: '2', method: 'PATCH', url: 'operations/emailTemplates/welcome', atomicityGroup: 'g', body: { culture: 'xx-NOPE' } },
    ]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.responses.map((response) => response.status)).toEqual([424, 400]);
    const read = await client.call<Resource>('GET', `${TEMPLATES}/welcome`);
    expect([read.body.subject, read.body.version]).toEqual([template.subject, 1]);
  });
});
