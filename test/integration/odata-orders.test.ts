/**
 * Any `$orderby` (issue 26): every scalar property, null-able ones included, any number of keys in any directions.
 * Differential: random data sets (NULLs, long runs of ties) and random orders, filters and page sizes, each walked
 * through nextPageLink and compared with a plain sort in TypeScript (NULL first ascending, last descending). Also the
 * orders integrations send, on routes and exchange rates documents.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, ORIGIN } from '../helpers/api';
import type { CallResult, TenantClient } from '../helpers/api';
import { BASE as DOCUMENTS, createDocument } from '../helpers/exchange-rates';
import { clearTemplates, seedId, seedTemplates } from '../helpers/odata-seed';
import type { ODataPage as Page } from '../helpers/odata-seed';
import type { SeedTemplate } from '../helpers/odata-seed';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates/odata';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('orders');
});

afterEach(async () => {
  await clearTemplates(client.tenant, client.org);
});

/** Every page from `firstPath` on, following nextPageLink. */
async function walk(firstPath: string, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let path: string | undefined = firstPath;
  while (path !== undefined) {
    const result: CallResult<Page> = await call<Page>('GET', path, { token: client.token });
    expect(result.status, `${decodeURIComponent(path)} -> ${result.text}`).toBe(200);
    pages.push(result.body);
    if (pages.length > limit) throw new Error(`paging does not end: ${decodeURIComponent(firstPath)}`);
    const link: string | undefined = result.body.nextPageLink;
    path = link === undefined ? undefined : link.slice(ORIGIN.length);
  }
  return pages;
}

/** A seeded row as the API names its properties (the seed writes `<p>subject</p>` as body and createdBy as modifiedBy). */
function propertiesOf(row: SeedTemplate): Record<string, string | number | boolean | null> {
  return { ...row, notificationBody: `<p>${row.subject}</p>`, modifiedBy: row.createdBy };
}

/** OData order: NULL first ascending (so last descending); booleans as 0/1; text by code unit (ASCII data: SQLite's). */
function compareValues(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  const [x, y] = [typeof a === 'boolean' ? Number(a) : a, typeof b === 'boolean' ? Number(b) : b];
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const [s, t] = [String(x), String(y)];
  return s < t ? -1 : s > t ? 1 : 0;
}

type Key = readonly [name: string, descending: boolean];

/** The expected ids: the keys (a repeated one counts once), then createdOn and id in the last key's direction. */
function sortIds(rows: readonly SeedTemplate[], keys: readonly Key[]): string[] {
  const columns: Key[] = [];
  for (const key of keys) if (!columns.some(([name]) => name === key[0])) columns.push(key);
  const last = columns.at(-1)?.[1] ?? false;
  for (const name of ['createdOn', 'id']) if (!columns.some(([taken]) => taken === name)) columns.push([name, last]);
  return rows
    .map(propertiesOf)
    .sort((a, b) => {
      for (const [name, descending] of columns) {
        const order = compareValues(a[name], b[name]);
        if (order !== 0) return descending ? -order : order;
      }
      return 0;
    })
    .map((row) => String(row.id));
}

const SORTABLE = [
  'templateKey',
  'subject',
  'emailTemplateType',
  'notificationBody',
  'culture',
  'description',
  'isActive',
  'createdOn',
  'createdBy',
  'modifiedOn',
  'modifiedBy',
  'version',
  'id',
] as const;

/** Rows with few distinct values per column (long runs of ties), NULL descriptions, ASCII text. */
const rowsArbitrary = fc
  .array(
    fc.record({
      subject: fc.constantFrom('A', 'B', 'b', 'Subject 1'),
      emailTemplateType: fc.constantFrom(1, 2),
      culture: fc.constantFrom('en-US', 'pt-PT', 'de-DE'),
      description: fc.constantFrom(null, null, '', 'x', 'Y'),
      isActive: fc.boolean(),
      createdOn: fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.500Z'),
      modifiedOn: fc.constantFrom('2026-02-01T00:00:00.000Z', '2026-02-03T00:00:00.000Z'),
      version: fc.integer({ min: 1, max: 3 }),
      createdBy: fc.constantFrom('ana', 'bob', 'Bob'),
      n: fc.integer({ min: 1, max: 4000 }),
    }),
    { maxLength: 24 },
  )
  .map((rows) =>
    rows.map(({ n, ...row }, index): SeedTemplate => ({
      ...row,
      id: seedId('d000', ((n * 31 + index) % 4093) * 16 + index),
      templateKey: `k-${String((index * 7) % 97).padStart(2, '0')}-${index}`,
    })),
  );

const keysArbitrary = fc
  .uniqueArray(fc.constantFrom(...SORTABLE), { minLength: 1, maxLength: 4 })
  .chain((names) =>
    fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), fc.boolean(), fc.constantFrom('', ' asc', ' desc', ' DESC')))),
  )
  .map((terms) =>
    terms.map(([name, upper, direction]): [string, boolean, string] => [
      upper ? name.toUpperCase() : name,
      direction.trim().toLowerCase() === 'desc',
      direction,
    ]),
  );

const FILTERS: readonly [string | undefined, (row: SeedTemplate) => boolean][] = [
  [undefined, () => true],
  ['isActive', (row) => row.isActive],
  ['description ne null', (row) => row.description !== null],
  ["culture eq 'pt-PT' or description eq null", (row) => row.culture === 'pt-PT' || row.description === null],
];

describe('any order pages through every row exactly once, as a plain sort orders them', () => {
  it('random data sets, orders (1 to 4 keys, mixed directions), filters and page sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        rowsArbitrary,
        keysArbitrary,
        fc.constantFrom(...FILTERS),
        fc.integer({ min: 1, max: 7 }),
        async (rows, terms, [filter, keep], top) => {
          await clearTemplates(client.tenant, client.org);
          if (rows.length > 0) await seedTemplates(client.tenant, client.org, rows);
          const orderby = terms.map(([name, , direction]) => `${name}${direction}`).join(',');
          const query = new URLSearchParams({ $orderby: orderby, $top: String(top), $count: 'true' });
          if (filter) query.set('$filter', filter);
          const pages = await walk(`${client.base}${TEMPLATES}?${query.toString()}`, rows.length + 2);
          const expected = sortIds(
            rows.filter(keep),
            terms.map(([name, descending]): Key => [
              SORTABLE.find((known) => known.toLowerCase() === name.toLowerCase()) ?? name,
              descending,
            ]),
          );
          expect(pages.flatMap((page) => page.items.map((item) => String(item.id)))).toEqual(expected);
          expect(pages.every((page) => page.count === expected.length)).toBe(true);
        },
      ),
      { numRuns: 100, seed: 20261126 },
    );
    // About 5 s on a quiet machine (100 data sets, about 800 requests); a limit for a busy one, not an assertion.
  }, 180_000);

  it('$select pages carry the order columns the token is made of, whatever is selected', async () => {
    const rows = Array.from({ length: 9 }, (_, index): SeedTemplate => ({
      id: seedId('d001', index + 1),
      templateKey: `s-${index}`,
      subject: `S${index % 2}`,
      emailTemplateType: 1,
      culture: 'en-US',
      description: index % 3 === 0 ? null : `d${index % 2}`,
      isActive: true,
      createdOn: '2026-01-01T00:00:00.000Z',
      modifiedOn: '2026-01-01T00:00:00.000Z',
      version: 1,
      createdBy: 'seed',
    }));
    await seedTemplates(client.tenant, client.org, rows);
    const pages = await walk(`${client.base}${TEMPLATES}?$select=templateKey&$orderby=description desc,subject asc&$top=2`, 10);
    const byId = new Map(rows.map((row) => [row.id, row.templateKey]));
    expect(pages.flatMap((page) => page.items.map((item) => item.templateKey))).toEqual(
      sortIds(rows, [
        ['description', true],
        ['subject', false],
      ]).map((id) => byId.get(id)),
    );
    expect(pages.every((page) => page.items.every((item) => Object.keys(item).join() === 'templateKey'))).toBe(true);
  });
});

describe('the orders integrations send answer 200 in that order', () => {
  it('routes: Company desc,RouteKey asc; RouteKey,Company; family (null-able)', async () => {
    await seedRouteReferenceData(client);
    for (const [company, routeKey, family] of [
      ['C1', 'R2', 'F1'],
      ['C2', 'R1', null],
      ['C1', 'R1', null],
      ['C2', 'R3', 'F1'],
    ] as const) {
      await createRoute(client, { company, routeKey, ...(family ? { family } : {}) });
    }
    const keys = async (orderby: string) => {
      const result = await client.call<Page>('GET', `${ROUTES}/odata?$orderby=${encodeURIComponent(orderby)}&$top=2`);
      expect(result.status, result.text).toBe(200);
      const pages = [result.body, ...(result.body.nextPageLink ? await walk(result.body.nextPageLink.slice(ORIGIN.length), 5) : [])];
      return pages.flatMap((page) => page.items.map((item) => `${String(item.company)}/${String(item.routeKey)}`));
    };
    expect(await keys('Company desc,RouteKey asc')).toEqual(['C2/R1', 'C2/R3', 'C1/R1', 'C1/R2']);
    expect(await keys('RouteKey,Company')).toEqual(['C1/R1', 'C2/R1', 'C1/R2', 'C2/R3']);
    // Ties (both R1) go by createdOn in the last key's direction: C1/R1 was created after C2/R1.
    expect(await keys('family desc,routeKey desc')).toEqual(['C2/R3', 'C1/R2', 'C1/R1', 'C2/R1']);
    expect(await keys('Family,RouteKey desc')).toEqual(['C1/R1', 'C2/R1', 'C2/R3', 'C1/R2']);
  });

  it('exchange rates documents: ValidFrom desc and ValidFrom asc', async () => {
    const created = [
      [3, '2026-03-01T00:00:00Z'],
      [1, '2026-01-01T00:00:00Z'],
      [2, '2026-02-01T00:00:00Z'],
    ] as const;
    for (const [number, validFrom] of created) await createDocument(client, number, validFrom, [['EUR', 'USD', '1.1']]);
    for (const [orderby, expected] of [
      ['ValidFrom desc', [3, 2, 1]],
      ['ValidFrom asc', [1, 2, 3]],
      ['exchangeRateType desc,number asc', [1, 2, 3]],
    ] as const) {
      const result = await client.call<Page>('GET', `${DOCUMENTS}/odata?$orderby=${encodeURIComponent(orderby)}&$top=1`);
      expect(result.status, result.text).toBe(200);
      const rest = result.body.nextPageLink ? await walk(result.body.nextPageLink.slice(ORIGIN.length), 5) : [];
      expect([result.body, ...rest].flatMap((page) => page.items.map((item) => item.number))).toEqual(expected);
    }
  });

  it('a collection or an unknown property stays a 400 naming it', async () => {
    for (const [path, orderby, name] of [
      [`${ROUTES}/odata`, 'company,locations desc', 'locations'],
      [`${DOCUMENTS}/odata`, 'exchangeRateDocumentRates', 'exchangeRateDocumentRates'],
      [TEMPLATES, 'culture desc,nope', 'nope'],
    ] as const) {
      const result = await client.call<{ code: string; detail: string; errors: { path: string }[] }>(
        'GET',
        `${path}?$orderby=${encodeURIComponent(orderby)}`,
      );
      expect(result.status, result.text).toBe(400);
      expect(result.body.code).toBe('InvalidODataQuery');
      expect(result.body.errors[0]?.path).toBe('$orderby');
      expect(result.body.detail).toContain(`'${name}'`);
    }
  });
});
