/** Paging walks every page without repeating or skipping a row; D1's parameter limit and deep filters stay 400/200, never 500. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import type { CallResult, Problem, TenantClient } from '../helpers/api';
import { clearTemplates, seedId, seedTemplates } from '../helpers/odata-seed';
import type { ODataPage as Page } from '../helpers/odata-seed';
import type { SeedTemplate } from '../helpers/odata-seed';
import { freshTenant } from '../helpers/tenants';

const BASE = '/operations/emailTemplates/odata';
const CULTURES = ['en-US', 'pt-PT', 'de-DE'];
const TOTAL = 105;

// Only three distinct creation times, so most rows tie on createdOn; ids are a permutation of the insertion order.
const ROWS: readonly SeedTemplate[] = Array.from({ length: TOTAL }, (_, index) => ({
  id: seedId('a000', ((index * 37) % 211) + 1),
  templateKey: `page-${String(index).padStart(3, '0')}`,
  subject: `Subject ${index}`,
  emailTemplateType: (index % 2) + 1,
  culture: CULTURES[index % 3] ?? 'en-US',
  description: index % 5 === 0 ? null : `Row ${index}`,
  isActive: index % 4 !== 0,
  createdOn: `2026-01-0${(index % 3) + 1}T00:00:00.000Z`,
  modifiedOn: `2026-01-0${(index % 3) + 1}T00:00:00.000Z`,
  version: 1,
  createdBy: 'seed',
}));

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('odata');
  await seedTemplates(client.tenant, client.org, ROWS);
});

afterEach(async () => {
  await clearTemplates(client.tenant, client.org);
});

/** Follows nextPageLink from the first page to the last; returns every page. */
async function walk(firstPath: string): Promise<Page[]> {
  const pages: Page[] = [];
  let path: string | undefined = firstPath;
  while (path !== undefined) {
    const result: CallResult<Page> = await call<Page>('GET', path, { token: client.token });
    expect(result.status, result.text).toBe(200);
    pages.push(result.body);
    if (pages.length > TOTAL + 1) throw new Error('paging does not end');
    const link: string | undefined = result.body.nextPageLink;
    if (link === undefined) path = undefined;
    else {
      const url: URL = new URL(link);
      expect(url.origin).toBe('https://api.test');
      path = url.pathname + url.search;
    }
  }
  return pages;
}

function idsOf(pages: readonly Page[]): string[] {
  return pages.flatMap((page) => page.items.map((item) => String(item.id)));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The default order (createdOn, then id), computed independently of the engine. */
const DEFAULT_ORDER = [...ROWS].sort((a, b) => compareText(a.createdOn, b.createdOn) || compareText(a.id, b.id)).map((row) => row.id);

describe('paging', () => {
  it('walks every page with $top: each row exactly once, in the stable default order', async () => {
    const pages = await walk(`${client.base}${BASE}?$top=5`);
    expect(pages).toHaveLength(21);
    expect(pages.every((page) => page.items.length === 5)).toBe(true);
    expect(idsOf(pages)).toEqual(DEFAULT_ORDER);
    expect(new Set(idsOf(pages)).size).toBe(TOTAL);
  });

  it('pages 100 rows at a time by default', async () => {
    const pages = await walk(`${client.base}${BASE}`);
    expect(pages.map((page) => page.items.length)).toEqual([100, 5]);
    expect(idsOf(pages)).toEqual(DEFAULT_ORDER);
  });

  it('walks page/pageSize links the same way', async () => {
    const pages = await walk(`${client.base}${BASE}?page=1&pageSize=8`);
    expect(pages.map((page) => page.items.length)).toEqual([...Array.from({ length: 13 }, () => 8), 1]);
    expect(idsOf(pages)).toEqual(DEFAULT_ORDER);
  });

  it('walks a filtered, ordered, counted, selected list with ties', async () => {
    const query = new URLSearchParams({
      $filter: 'isActive and description ne null',
      $orderby: 'culture desc',
      $select: 'id,culture',
      $top: '4',
      $count: 'true',
    });
    const pages = await walk(`${client.base}${BASE}?${query.toString()}`);
    const expected = ROWS.filter((row) => row.isActive && row.description !== null)
      .sort((a, b) => compareText(b.culture, a.culture) || compareText(b.createdOn, a.createdOn) || compareText(b.id, a.id))
      .map((row) => row.id);
    expect(idsOf(pages)).toEqual(expected);
    expect(pages.every((page) => page.count === expected.length)).toBe(true);
    expect(pages.every((page) => page.items.every((item) => Object.keys(item).join() === 'id,culture'))).toBe(true);
  });
});

describe("D1's limit of 100 bound parameters", () => {
  const values = (n: number) => Array.from({ length: n }, (_, index) => `'c${index}'`).join(',');

  it('accepts a list query that binds exactly 100 values (tenant, org, 97 values, limit)', async () => {
    const result = await client.call<Page>('GET', `${BASE}?$filter=culture in (${values(96)},'de-DE')&$count=true`);
    expect(result.status, result.text).toBe(200);
    expect(result.body.count).toBe(35);
  });

  it('refuses one more with 400 InvalidODataQuery pointing at the first value that does not fit', async () => {
    const filter = `culture in (${values(98)})`;
    const result = await client.call<Problem>('GET', `${BASE}?$filter=${encodeURIComponent(filter)}`);
    expect(result.status, result.text).toBe(400);
    expect(result.body.code).toBe('InvalidODataQuery');
    expect(result.body.detail).toBe(
      `$filter at position ${filter.indexOf("'c97'") + 1}: the query needs 101 bound values but D1 allows at most 100 per statement; use at most 97 literal values in $filter`,
    );
  });

  it('checks the whole final statement: $skip adds the offset parameter', async () => {
    const filter = `culture in (${values(97)})`;
    const first = await client.call<Page>('GET', `${BASE}?$filter=${encodeURIComponent(filter)}`);
    expect(first.status).toBe(200);
    const skipped = await client.call<Problem>('GET', `${BASE}?$filter=${encodeURIComponent(filter)}&$skip=1`);
    expect(skipped.status).toBe(400);
    expect(skipped.body.detail).toContain(`position ${filter.indexOf("'c96'") + 1}: the query needs 101 bound values`);
  });

  it('counts values bound anywhere in the filter', async () => {
    const filter = Array.from({ length: 98 }, (_, index) => `subject eq 's${index}'`).join(' or ');
    const result = await client.call<Problem>('GET', `${BASE}?$filter=${encodeURIComponent(filter)}`);
    expect(result.status).toBe(400);
    expect(result.body.detail).toContain('D1 allows at most 100');
  });
});

describe('the deepest and longest accepted filters run on D1', () => {
  const accepted = [
    ['24 parentheses', `${'('.repeat(24)}isActive${')'.repeat(24)}`],
    ['24 nots', `${'not '.repeat(24)}isActive`],
    ['not and parentheses', `${'not ('.repeat(12)}culture eq 'en-US'${')'.repeat(12)}`],
    ['23 nested functions', `${'tolower('.repeat(23)}culture${')'.repeat(23)} eq 'en-us'`],
    ['a chain of 600 terms', Array.from({ length: 600 }, () => 'isActive').join(' or ')],
  ];
  it.each(accepted)('%s', async (_name, filter) => {
    const result = await client.call<Page>('GET', `${BASE}?$filter=${encodeURIComponent(filter)}&$top=1`);
    expect(result.status, result.text).toBe(200);
    expect(result.body.items).toHaveLength(1);
  });
});
