import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { readAllChanges, readChanges } from '../helpers/events';
import { changeImport, IMPORTS, registerImport } from '../helpers/imports';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';

const template = {
  templateKey: 'welcome',
  subject: 'Welcome',
  emailTemplateType: 1,
  notificationBody: '<p>Hello</p>',
  culture: 'en-US',
};

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('feed');
});

async function expectStatus(promise: Promise<{ status: number; text: string }>, status: number): Promise<void> {
  const result = await promise;
  expect(result.status, result.text).toBe(status);
}

describe('outbox: every acknowledged change writes its event, and only those', () => {
  it('email template: created, updated (a no-op writes nothing), deleted as a tombstone', async () => {
    const created = await client.call<string>('POST', TEMPLATES, { body: template });
    expect(created.status, created.text).toBe(201);
    const id = created.body;
    await expectStatus(client.call('PUT', `${TEMPLATES}/welcome/subject`, { body: { value: 'Hi' } }), 200);
    await expectStatus(client.call('PUT', `${TEMPLATES}/welcome/subject`, { body: { value: 'Hi' } }), 200);
    // A refused write (duplicate key) writes no event either.
    await expectStatus(client.call('POST', TEMPLATES, { body: template }), 400);
    await expectStatus(client.call('DELETE', `${TEMPLATES}/welcome`), 204);

    const items = await readAllChanges(client);
    expect(items.map((item) => [item.changeType, item.version, item.key, item.recordId])).toEqual([
      ['created', 1, 'welcome', id],
      ['updated', 2, 'welcome', id],
      ['deleted', 3, 'welcome', id],
    ]);
    expect(items.every((item) => item.resource === 'operations/emailTemplates' && item.actor === 'tester')).toBe(true);
    expect(items[1]?.changes).toEqual({ attributes: ['subject'] });
    expect(new Set(items.map((item) => item.id)).size).toBe(3);
  });

  it('reference data, route membership and import state changes carry what changed', async () => {
    await seedRouteReferenceData(client);
    const routeId = await createRoute(client);
    await expectStatus(client.call('POST', `${ROUTES}/R1/locations/add?companyKey=C1`, { body: ['L1'] }), 200);
    // Adding the same member again changes nothing: no event.
    await expectStatus(client.call('POST', `${ROUTES}/R1/locations/add?companyKey=C1`, { body: ['L1'] }), 200);
    await expectStatus(client.call('PUT', '/referenceData/companies', { body: [{ key: 'C9', name: 'New', baseCurrency: 'EUR' }] }), 200);
    await expectStatus(client.call('DELETE', '/referenceData/companies/C9'), 204);
    const importId = await registerImport(client);
    await expectStatus(changeImport(client, { importId, importDataState: 2 }), 200);

    const routes = await readAllChanges(client, 'assetManagementCore/routes');
    expect(routes.map((item) => [item.changeType, item.version, item.recordId])).toEqual([
      ['created', 1, routeId],
      ['updated', 2, routeId],
    ]);
    expect(routes[1]?.changes).toEqual({ members: { locations: { added: ['L1'] } } });

    const companies = (await readAllChanges(client, 'referenceData/companies')).filter((item) => item.key === 'C9');
    expect(companies.map((item) => item.changeType)).toEqual(['created', 'deleted']);
    expect(companies[0]?.version ?? 0).toBeLessThan(companies[1]?.version ?? 0);

    const imports = await readAllChanges(client, IMPORTS.slice(1));
    expect(imports.map((item) => [item.changeType, item.version, item.recordId, item.key])).toEqual([
      ['created', 1, importId, '1'],
      ['updated', 2, importId, '1'],
    ]);
    expect(imports[1]?.changes).toMatchObject({ kind: 'change', fromState: 1, toState: 2 });
  });
});

describe('GET /changes', () => {
  async function createTemplates(count: number): Promise<void> {
    for (let index = 0; index < count; index += 1) {
      await expectStatus(client.call('POST', TEMPLATES, { body: { ...template, templateKey: `t${index}` } }), 201);
    }
  }

  it('pages in commit order; the cursor continues where the last answer ended', async () => {
    await createTemplates(5);
    const first = await readChanges(client, '?$top=2');
    expect(first.items.map((item) => item.key)).toEqual(['t0', 't1']);
    expect(first.nextPageLink).toBeDefined();
    const rest = await readChanges(client, `?since=${encodeURIComponent(first.cursor)}`);
    expect(rest.items.map((item) => item.key)).toEqual(['t2', 't3', 't4']);
    expect(rest.nextPageLink).toBeUndefined();
    const none = await readChanges(client, `?since=${encodeURIComponent(rest.cursor)}`);
    expect(none.items).toEqual([]);
    expect(none.cursor).toBe(rest.cursor);
    await createTemplates(0);
    await expectStatus(client.call('DELETE', `${TEMPLATES}/t0`), 204);
    const after = await readChanges(client, `?since=${encodeURIComponent(none.cursor)}`);
    expect(after.items.map((item) => [item.changeType, item.key])).toEqual([['deleted', 't0']]);
  });

  it('filters by resource prefix; a filtered page still advances the cursor past other events', async () => {
    await createTemplates(1);
    await expectStatus(client.call('PUT', '/referenceData/companies', { body: [{ key: 'C1', name: 'One', baseCurrency: 'EUR' }] }), 200);
    const references = await readChanges(client, '?resource=referenceData');
    expect(references.items.map((item) => item.resource)).toEqual(['referenceData/companies']);
    const operations = await readChanges(client, '?resource=operations');
    expect(operations.items.map((item) => item.key)).toEqual(['t0']);
    expect(operations.cursor).toBe(references.cursor);
    expect((await readChanges(client, '?resource=operations/email')).items).toEqual([]);
  });

  it('refuses a resource that is not a service prefix, however long or pattern-like (400 naming resource)', async () => {
    await createTemplates(1);
    const refused = ['a'.repeat(201), 'a'.repeat(60_000), '%_'.repeat(30), 'operations%', 'operations_', 'a*', 'operations/', '../x'];
    for (const resource of refused) {
      const result = await client.call<Problem>('GET', `/changes?resource=${encodeURIComponent(resource)}`);
      expect([result.status, result.body.errors?.map((error) => error.path)], resource.slice(0, 40)).toEqual([400, ['resource']]);
    }
    // The longest prefix allowed matches by its text (no pattern, so no limit on patterns): none of these events.
    const longest = await readChanges(client, `?resource=${'a'.repeat(200)}`);
    expect(longest.items).toEqual([]);
    expect((await readChanges(client, '?resource=operations/emailTemplates')).items).toHaveLength(1);
    expect((await readChanges(client, '?resource=')).items).toHaveLength(1);
  });

  it('refuses a malformed cursor and one ahead of the feed (400 InvalidCursor naming since)', async () => {
    const bad = await client.call<Problem>('GET', '/changes?since=42');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('InvalidCursor');
    expect(bad.body.errors.map((error) => error.path)).toEqual(['since']);
    await createTemplates(3);
    const ahead = (await readChanges(client)).cursor;
    const other = await freshTenant('feed-other');
    const future = await other.call<Problem>('GET', `/changes?since=${encodeURIComponent(ahead)}`);
    expect(future.status).toBe(400);
    expect(future.body.code).toBe('InvalidCursor');
    const top = await client.call<Problem>('GET', '/changes?$top=0');
    expect(top.status).toBe(400);
    expect(top.body.errors.map((error) => error.path)).toEqual(['$top']);
  });

  it("another tenant or org never sees the tenant/org's events", async () => {
    await createTemplates(2);
    const other = await freshTenant('feed-other');
    expect((await readChanges(other)).items).toEqual([]);
  });
});
