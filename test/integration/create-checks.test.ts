/**
 * A create checks custom attribute definitions, reference keys and the entity's own rules in its insert's batch,
 * with definitions cached per isolate: whatever changes them (this isolate's API, another isolate, a row written
 * straight into D1) is seen by the very next create.
 */
import { describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { createRoute, ROUTES, routeBody, seedRouteReferenceData } from '../helpers/routes';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';
let counter = 0;

function templateBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return { templateKey: `cc-${counter}`, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US', ...extra };
}

async function createTemplate(client: TenantClient, extra: Record<string, unknown> = {}) {
  return client.call<Problem>('POST', TEMPLATES, { body: templateBody(extra) });
}

function pathsOf(problem: Problem): string[] {
  return problem.errors.map((error) => error.path).sort();
}

/** A definition written straight into the tenant/org's database, as another isolate's write would leave it. */
async function defineDirectly(client: TenantClient, name: string, type: string, required: boolean): Promise<void> {
  const db = await openClientD1(client);
  await db
    .prepare(
      `INSERT INTO ref_custom_attributes (id, tenant_key, org_key, key, entity, name, type, required)
       VALUES (?, ?, ?, ?, 'emailTemplates', ?, ?, ?)
       ON CONFLICT (tenant_key, org_key, key) DO UPDATE SET type = excluded.type, required = excluded.required`,
    )
    .bind(crypto.randomUUID(), client.tenant, client.org, `emailTemplates.${name}`, name, type, required ? 1 : 0)
    .run();
}

async function runDirectly(client: TenantClient, query: string, ...values: unknown[]): Promise<void> {
  const db = await openClientD1(client);
  await db
    .prepare(query)
    .bind(...values)
    .run();
}

describe('custom attribute definitions on create', () => {
  it('a definition written through the API applies to the next create', async () => {
    const client = await freshTenant('cc-api');
    expect((await createTemplate(client, { custom_free: 1 })).status).toBe(201);
    const defined = await client.call('PUT', '/referenceData/customAttributes', {
      body: [{ key: 'emailTemplates.channel', entity: 'emailTemplates', name: 'channel', type: 'string', required: true }],
    });
    expect(defined.status, defined.text).toBe(200);
    const missing = await createTemplate(client);
    expect(missing.status).toBe(400);
    expect(pathsOf(missing.body)).toEqual(['custom_channel']);
    expect((await createTemplate(client, { custom_channel: 'mail' })).status).toBe(201);
    const removed = await client.call('DELETE', '/referenceData/customAttributes/emailTemplates.channel');
    expect(removed.status, removed.text).toBeLessThan(300);
    expect((await createTemplate(client, { custom_free: 2 })).status).toBe(201);
  });

  it('a definition changed outside this isolate (straight in D1) applies to the next create', async () => {
    const client = await freshTenant('cc-other');
    await defineDirectly(client, 'channel', 'string', false);
    // The first create loads (and caches) the definitions; the next ones use the cache.
    expect((await createTemplate(client, { custom_channel: 'mail' })).status).toBe(201);
    expect((await createTemplate(client, { custom_channel: 'fax' })).status).toBe(201);

    // Now required, and a new definition: the cached definitions are outdated.
    await defineDirectly(client, 'channel', 'string', true);
    await defineDirectly(client, 'priority', 'number', false);
    const missing = await createTemplate(client, { custom_priority: 1 });
    expect(missing.status, JSON.stringify(missing.body)).toBe(400);
    expect(pathsOf(missing.body)).toEqual(['custom_channel']);
    // A name the cache does not know is accepted once it is defined (the cache never refuses on its own).
    expect((await createTemplate(client, { custom_channel: 'mail', custom_priority: 2 })).status).toBe(201);

    // A type change: the cached `number` would accept 3; the stored `string` refuses it.
    await defineDirectly(client, 'priority', 'string', false);
    const wrongType = await createTemplate(client, { custom_channel: 'mail', custom_priority: 3 });
    expect(wrongType.status).toBe(400);
    expect(pathsOf(wrongType.body)).toEqual(['custom_priority']);

    // Every definition gone: any valid name is accepted again, and the required one no longer is.
    await runDirectly(client, 'DELETE FROM ref_custom_attributes WHERE tenant_key = ? AND org_key = ?', client.tenant, client.org);
    expect((await createTemplate(client, { custom_anything: true })).status).toBe(201);
  });

  it('a create the batch refuses writes nothing', async () => {
    const client = await freshTenant('cc-none');
    await defineDirectly(client, 'channel', 'string', false);
    expect((await createTemplate(client, { custom_channel: 'mail' })).status).toBe(201);
    await defineDirectly(client, 'channel', 'number', false);
    const body = templateBody({ custom_channel: 'mail' });
    expect((await client.call('POST', TEMPLATES, { body })).status).toBe(400);
    expect((await client.call('GET', `${TEMPLATES}/${String(body.templateKey)}`)).status).toBe(404);
    // Nor its event: the refused batch held the change feed's `created` event too.
    const db = await openClientD1(client);
    const events = await db
      .prepare('SELECT record_key FROM change_events WHERE tenant_key = ? AND org_key = ? ORDER BY seq')
      .bind(client.tenant, client.org)
      .all<{ record_key: string }>();
    expect(events.results.map((event) => event.record_key)).not.toContain(body.templateKey);
    expect(events.results).toHaveLength(1);
  });
});

describe('reference keys and rules on create', () => {
  it('a reference deleted outside this isolate is refused by the next create (UnknownReference)', async () => {
    const client = await freshTenant('cc-ref');
    await seedRouteReferenceData(client);
    // R1 uses neither F1 nor T2: the database refuses to delete a reference in use (rule:reference_in_use).
    await createRoute(client, { routeKey: 'R1', tools: ['T1'] });
    await runDirectly(client, "DELETE FROM ref_families WHERE tenant_key = ? AND org_key = ? AND key = 'F1'", client.tenant, client.org);
    await runDirectly(client, "DELETE FROM ref_tools WHERE tenant_key = ? AND org_key = ? AND key = 'T2'", client.tenant, client.org);
    const refused = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'R2', family: 'F1', tools: ['T1', 'T2'] }) });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('UnknownReference');
    expect(pathsOf(refused.body)).toEqual(['family', 'tools[1]']);
    expect((await client.call('GET', `${ROUTES}/C1/R2`)).status).toBe(404);
  });

  it('a brand model moved to another brand outside this isolate is refused by the next create', async () => {
    const client = await freshTenant('cc-brand');
    await seedRouteReferenceData(client);
    // R1 does not use M1: the database refuses to move a brand model a route uses (rule:reference_in_use).
    await createRoute(client, { routeKey: 'R1', brand: 'B2', brandModel: 'M2' });
    await runDirectly(
      client,
      "UPDATE ref_brand_models SET brand = 'B2' WHERE tenant_key = ? AND org_key = ? AND key = 'M1'",
      client.tenant,
      client.org,
    );
    const refused = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'R2', brand: 'B1', brandModel: 'M1' }) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: 'brandModel', message: expect.stringMatching(/'M1'.*'B2'.*'B1'/) }]);
    expect((await client.call('POST', ROUTES, { body: routeBody({ routeKey: 'R2', brand: 'B2', brandModel: 'M1' }) })).status).toBe(201);
  });
});
