/**
 * An unfiltered `$count` is read from the maintained count (entity_counts, kept by triggers in the same statement as
 * every insert and delete): it always equals the rows the tenant/org has, through creates, deletes, refused writes and
 * rows written outside the API, and never counts another tenant/org's rows.
 */
import { describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { clearTemplates, seedId, seedTemplates } from '../helpers/odata-seed';
import { openTenantD1 } from '../helpers/tenant-db';
import { freshTenant, siblingOrg } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';

const body = (key: string) => ({
  templateKey: key,
  subject: `Subject ${key}`,
  emailTemplateType: 1,
  notificationBody: '<p>x</p>',
  culture: 'en-US',
});

async function countOf(client: TenantClient, path = `${TEMPLATES}/odata`): Promise<number> {
  const result = await client.call<{ count: number; items: unknown[] }>('GET', `${path}?$count=true&$top=0`);
  expect(result.status, result.text).toBe(200);
  return result.body.count;
}

async function countRows(client: TenantClient): Promise<number> {
  const db = await openTenantD1({ tenantKey: client.tenant, orgKey: client.org });
  const row = await db
    .prepare('SELECT count(*) AS n FROM email_templates WHERE tenant_key = ? AND org_key = ?')
    .bind(client.tenant, client.org)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe('the maintained count', () => {
  it('is 0 for a tenant/org that never wrote, and follows creates, deletes and refused writes', async () => {
    const client = await freshTenant('count');
    expect(await countOf(client)).toBe(0);
    for (const key of ['a', 'b', 'c', 'd']) expect((await client.call('POST', TEMPLATES, { body: body(key) })).status).toBe(201);
    expect(await countOf(client)).toBe(4);
    // A duplicate key is refused: its batch wrote nothing, so the count did not move either.
    const duplicate = await client.call<{ code: string }>('POST', TEMPLATES, { body: body('a') });
    expect([duplicate.status, duplicate.body.code]).toEqual([400, 'DuplicateKey']);
    expect((await client.call('DELETE', `${TEMPLATES}/b`)).status).toBe(204);
    expect((await client.call('DELETE', `${TEMPLATES}/b`)).status).toBe(404);
    expect(await countOf(client)).toBe(3);
    expect(await countRows(client)).toBe(3);
    // Filtered counts still count the matching rows; the page's rows do not change the count.
    const filtered = await client.call<{ count: number; items: unknown[] }>(
      'GET',
      `${TEMPLATES}/odata?$count=true&$filter=templateKey ne 'a'&$top=1`,
    );
    expect([filtered.body.count, filtered.body.items.length]).toEqual([2, 1]);
    const paged = await client.call<{ count: number; items: unknown[] }>(
      'GET',
      `${TEMPLATES}/odata?$count=true&$top=1&$orderby=templateKey`,
    );
    expect([paged.body.count, paged.body.items.length]).toEqual([3, 1]);
  });

  it('counts rows written outside the API (triggers), per tenant/org only', async () => {
    const client = await freshTenant('count');
    const sibling = await siblingOrg(client);
    await seedTemplates(
      client.tenant,
      client.org,
      Array.from({ length: 25 }, (_, index) => ({
        id: seedId('e000', index + 1),
        templateKey: `seeded-${index}`,
        subject: 's',
        emailTemplateType: 1,
        culture: 'en-US',
        description: null,
        isActive: true,
        createdOn: '2026-01-01T00:00:00.000Z',
        modifiedOn: '2026-01-01T00:00:00.000Z',
        version: 1,
        createdBy: 'seed',
      })),
    );
    expect((await sibling.call('POST', TEMPLATES, { body: body('only') })).status).toBe(201);
    expect(await countOf(client)).toBe(25);
    expect(await countOf(sibling)).toBe(1);
    await clearTemplates(client.tenant, client.org);
    expect(await countOf(client)).toBe(0);
    expect(await countOf(sibling)).toBe(1);
  });

  it('is kept for routes and exchange rates documents too', async () => {
    const client = await freshTenant('count');
    expect(await countOf(client, '/assetManagementCore/routes/odata')).toBe(0);
    expect(await countOf(client, '/businessCore/exchangeRatesDocuments/odata')).toBe(0);
  });
});
