/**
 * Keyset paging: nextPageLink carries `$skiptoken` (the last row's order values), walks every sortable order in both
 * directions with a filter, never repeats a row when rows are added between pages, and refuses a token that was edited
 * or taken from another list, filter, order or tenant/org.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSortOrders } from '../../src/resources/entities/odata-fields';
import { emailTemplateSpec } from '../../src/services/email-templates/entity';
import { call, ORIGIN } from '../helpers/api';
import type { CallResult, Problem, TenantClient } from '../helpers/api';
import { clearTemplates, seedId, seedTemplates } from '../helpers/odata-seed';
import type { ODataPage as Page } from '../helpers/odata-seed';
import type { SeedTemplate } from '../helpers/odata-seed';
import { freshTenant, siblingOrg } from '../helpers/tenants';

const BASE = '/operations/emailTemplates/odata';
const TOTAL = 47;

// Few distinct values per column, so every order has long runs of ties that only createdOn and id break.
const ROWS: readonly SeedTemplate[] = Array.from({ length: TOTAL }, (_, index) => ({
  id: seedId('c000', ((index * 29) % 101) + 1),
  templateKey: `key-${String((index * 7) % TOTAL).padStart(2, '0')}`,
  subject: `Subject ${index % 4}`,
  emailTemplateType: (index % 2) + 1,
  culture: ['en-US', 'pt-PT', 'de-DE'][index % 3] ?? 'en-US',
  description: index % 5 === 0 ? null : `Row ${index}`,
  isActive: index % 3 !== 0,
  createdOn: `2026-01-0${(index % 4) + 1}T00:00:00.000Z`,
  modifiedOn: `2026-02-0${(index % 5) + 1}T00:00:00.000Z`,
  version: 1,
  createdBy: 'seed',
}));

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('keyset');
  await seedTemplates(client.tenant, client.org, ROWS);
});

afterEach(async () => {
  await clearTemplates(client.tenant, client.org);
});

const pathOf = (link: string) => link.slice(ORIGIN.length);

async function walk(firstPath: string, token = client.token): Promise<Page[]> {
  const pages: Page[] = [];
  let path: string | undefined = firstPath;
  while (path !== undefined) {
    const result: CallResult<Page> = await call<Page>('GET', path, { token });
    expect(result.status, result.text).toBe(200);
    pages.push(result.body);
    if (pages.length > TOTAL + 1) throw new Error('paging does not end');
    const link: string | undefined = result.body.nextPageLink;
    if (link !== undefined) expect(new URL(link).searchParams.has('$skiptoken')).toBe(true);
    path = link === undefined ? undefined : pathOf(link);
  }
  return pages;
}

const idsOf = (pages: readonly Page[]) => pages.flatMap((page) => page.items.map((item) => String(item.id)));

/** NULL first (ascending), as OData orders it. */
function compareValues(a: unknown, b: unknown): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  const x = typeof a === 'boolean' ? Number(a) : a;
  const y = typeof b === 'boolean' ? Number(b) : b;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const [s, t] = [String(x), String(y)];
  return s < t ? -1 : s > t ? 1 : 0;
}

/** The rows in `names` order (then createdOn, id), every key one direction: computed apart from the engine. */
function expectedOrder(rows: readonly SeedTemplate[], names: readonly string[], descending: boolean): string[] {
  const keys = [...names, ...['createdOn', 'id'].filter((name) => !names.includes(name))] as (keyof SeedTemplate)[];
  const sign = descending ? -1 : 1;
  return [...rows]
    .sort((a, b) => {
      for (const key of keys) {
        const order = compareValues(a[key], b[key]);
        if (order !== 0) return sign * order;
      }
      return 0;
    })
    .map((row) => row.id);
}

describe('nextPageLink walks every order an index serves by keyset', () => {
  const orders = listSortOrders(emailTemplateSpec).flatMap((order) => [
    [order.fields.join(', '), order.fields, false] as const,
    [`${order.fields.slice(0, order.required).join(' desc, ')} desc`, order.fields.slice(0, order.required), true] as const,
  ]);

  it.each(orders)('$orderby=%s, filtered, 4 rows a page', async (_name, names, descending) => {
    const orderby = names.map((name) => `${name}${descending ? ' desc' : ''}`).join(',');
    const query = new URLSearchParams({ $filter: "isActive or culture eq 'de-DE'", $orderby: orderby, $top: '4', $count: 'true' });
    const pages = await walk(`${client.base}${BASE}?${query.toString()}`);
    const expected = expectedOrder(
      ROWS.filter((row) => row.isActive || row.culture === 'de-DE'),
      names,
      descending,
    );
    expect(idsOf(pages)).toEqual(expected);
    expect(pages.every((page) => page.count === expected.length)).toBe(true);
  });

  it('keeps $select as sent: the token is made from columns the page did not select', async () => {
    const pages = await walk(`${client.base}${BASE}?$select=templateKey&$orderby=subject desc&$top=10`);
    expect(pages.flatMap((page) => page.items.map((item) => String(item.templateKey)))).toEqual(
      expectedOrder(ROWS, ['subject'], true).map((id) => ROWS.find((row) => row.id === id)?.templateKey),
    );
    expect(pages.every((page) => page.items.every((item) => Object.keys(item).join() === 'templateKey'))).toBe(true);
  });

  it('continues from $skip with a token: $skip stays supported', async () => {
    const pages = await walk(`${client.base}${BASE}?$orderby=culture&$skip=10&$top=15`);
    expect(idsOf(pages)).toEqual(expectedOrder(ROWS, ['culture'], false).slice(10));
  });

  it('neither repeats nor skips a row when rows are added before the position meanwhile', async () => {
    const first = await client.call<Page>('GET', `${BASE}?$orderby=templateKey&$top=10`);
    const seen = first.body.items.map((item) => String(item.id));
    await seedTemplates(client.tenant, client.org, [{ ...ROWS[0], id: seedId('c001', 1), templateKey: 'key-00a' } as SeedTemplate]);
    const rest = await walk(pathOf(first.body.nextPageLink ?? ''));
    const all = [...seen, ...idsOf(rest)];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(TOTAL);
  });
});

describe('a $skiptoken is bound to its list', () => {
  async function firstLink(query: string): Promise<URL> {
    const first = await client.call<Page>('GET', `${BASE}?${query}`);
    expect(first.status, first.text).toBe(200);
    return new URL(first.body.nextPageLink ?? '');
  }

  async function expectRefused(path: string, token = client.token): Promise<void> {
    const result = await call<Problem>('GET', path, { token });
    expect(result.status, result.text).toBe(400);
    expect(result.headers.get('content-type')).toContain('application/problem+json');
    expect(result.body.code).toBe('InvalidODataQuery');
    expect(result.body.errors[0]?.path).toBe('$skiptoken');
  }

  it('refuses a token edited by hand', async () => {
    const url = await firstLink('$orderby=subject&$top=5');
    const token = url.searchParams.get('$skiptoken') ?? '';
    const decoded = JSON.parse(atob(token.replace(/-/g, '+').replace(/_/g, '/'))) as [unknown[], string];
    decoded[0][0] = 'Subject 9';
    const forged = btoa(JSON.stringify(decoded)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    url.searchParams.set('$skiptoken', forged);
    await expectRefused(url.pathname + url.search);
    url.searchParams.set('$skiptoken', `${token.slice(0, -2)}xx`);
    await expectRefused(url.pathname + url.search);
  });

  it('refuses a token with another filter or order', async () => {
    const url = await firstLink("$filter=culture eq 'en-US'&$orderby=subject&$top=3");
    url.searchParams.set('$filter', "culture eq 'pt-PT'");
    await expectRefused(url.pathname + url.search);
    url.searchParams.set('$filter', "culture eq 'en-US'");
    url.searchParams.set('$orderby', 'subject desc');
    await expectRefused(url.pathname + url.search);
  });

  it("refuses another org's token, and another list's", async () => {
    const url = await firstLink('$top=3');
    const sibling = await siblingOrg(client);
    await expectRefused(`${sibling.base}${BASE}${url.search}`, sibling.token);
    await expectRefused(`${client.base}/assetManagementCore/routes/odata${url.search}`);
  });
});
