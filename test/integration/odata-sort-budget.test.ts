/**
 * The sort budget (docs/odata.md, "Sorting"): an order no index serves sorts the rows the filter selects, at most
 * SORT_ROW_BUDGET of them; a list of that many rows is always answered, one more is 400 naming `$filter`, and a filter
 * that selects fewer is answered again. Orders an index serves never count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SORT_ROW_BUDGET } from '../../src/odata/types';
import type { Problem, TenantClient } from '../helpers/api';
import { clearTemplates } from '../helpers/odata-seed';
import type { ODataPage as Page } from '../helpers/odata-seed';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates/odata';

let client: TenantClient;

/** Rows n = from..to in one statement: bodies in reverse of n, a culture in four, every 7th description NULL. */
async function load(from: number, to: number): Promise<void> {
  const db = await openClientD1(client);
  await db
    .prepare(
      `WITH RECURSIVE seq(n) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT n + 1 FROM seq WHERE n < CAST(? AS INTEGER))
       INSERT INTO email_templates (id, tenant_key, org_key, template_key, subject, email_template_type, notification_body, culture,
         description, custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by)
       SELECT printf('00000000-0000-4000-b000-%012x', n), ?, ?, 't' || n, CASE WHEN n = 7 THEN 'a needle' ELSE 's' END, 1,
         printf('b%07d', 1000000 - n), CASE n % 4 WHEN 0 THEN 'pt-PT' WHEN 1 THEN 'en-US' WHEN 2 THEN 'de-DE' ELSE 'fr-FR' END,
         CASE WHEN n % 7 = 0 THEN NULL ELSE 'd' || (n % 3) END, NULL, 1, 1, '2026-01-01T00:00:00.000Z', 'seed',
         '2026-01-01T00:00:00.000Z', 'seed'
       FROM seq`,
    )
    .bind(from, to, client.tenant, client.org)
    .run();
}

beforeAll(async () => {
  client = await freshTenant('budget');
  await load(1, SORT_ROW_BUDGET);
}, 300_000);

// Deleting the 100,000 rows is as heavy as loading them: on a busy machine it outlasts the default 10 s hook limit.
afterAll(async () => {
  await clearTemplates(client.tenant, client.org);
}, 300_000);

const list = (query: string) => client.call<Page & Problem>('GET', `${TEMPLATES}?${query}`);

describe('an order no index serves sorts at most the budget of selected rows', () => {
  it('answers an unfiltered list of exactly the budget, sorted (notificationBody, mixed directions)', async () => {
    const body = await list('$orderby=notificationBody&$top=3&$select=templateKey');
    expect(body.status, body.text).toBe(200);
    expect(body.body.items.map((item) => item.templateKey)).toEqual([
      `t${SORT_ROW_BUDGET}`,
      `t${SORT_ROW_BUDGET - 1}`,
      `t${SORT_ROW_BUDGET - 2}`,
    ]);
    const mixed = await list('$orderby=culture desc,templateKey asc&$top=2&$select=templateKey');
    expect(mixed.status, mixed.text).toBe(200);
    expect(mixed.body.items.map((item) => item.templateKey)).toEqual(['t100', 't1000']);
  }, 120_000);

  it('refuses one row more unfiltered, naming $filter; answers a filter that selects fewer, and orders an index serves', async () => {
    await load(SORT_ROW_BUDGET + 1, SORT_ROW_BUDGET + 1);
    const refused = await list('$orderby=notificationBody desc');
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.code).toBe('InvalidODataQuery');
    expect(refused.body.errors[0]?.path).toBe('$orderby');
    expect(refused.body.detail).toContain('add a $filter');
    expect(refused.body.detail).toContain(SORT_ROW_BUDGET.toLocaleString('en'));
    expect((await list('$orderby=culture desc,templateKey asc&$top=1')).status).toBe(400);

    const filtered = await list(`$filter=${encodeURIComponent("culture eq 'pt-PT'")}&$orderby=notificationBody&$top=2&$count=true`);
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.body.count).toBe(SORT_ROW_BUDGET / 4);
    expect(filtered.body.items.map((item) => item.templateKey)).toEqual([`t${SORT_ROW_BUDGET}`, `t${SORT_ROW_BUDGET - 4}`]);
    const rare = await list(`$filter=${encodeURIComponent("contains(subject,'needle')")}&$orderby=notificationBody desc`);
    expect(rare.status, rare.text).toBe(200);
    expect(rare.body.items.map((item) => item.templateKey)).toEqual(['t7']);

    // Only counting, nothing to sort.
    const counted = await list('$orderby=notificationBody&$top=0&$count=true');
    expect(counted.status, counted.text).toBe(200);
    expect(counted.body.count).toBe(SORT_ROW_BUDGET + 1);

    for (const orderby of ['description desc', 'createdBy', 'version desc', 'templateKey', 'culture desc']) {
      const served = await list(`$orderby=${encodeURIComponent(orderby)}&$top=2`);
      expect(served.status, `${orderby}: ${served.text}`).toBe(200);
      expect(served.body.items).toHaveLength(2);
    }
    // Sorting 100,000 rows a few times: well under a second each on a quiet machine; a limit for a busy one.
  }, 120_000);
});
