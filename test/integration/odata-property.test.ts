/** Property-based checks through the Worker against real D1: valid filters never give a 500, literals never change the answer's shape. */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { quote, sortableOrderBy, validFilter, validOrderBy } from '../helpers/odata-arbitraries';
import { clearTemplates, seedId, seedTemplates } from '../helpers/odata-seed';
import { freshTenant } from '../helpers/tenants';

const BASE = '/operations/emailTemplates/odata';

interface Page {
  items: Record<string, unknown>[];
  count?: number;
}

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('odata');
  await seedTemplates(
    client.tenant,
    client.org,
    Array.from({ length: 12 }, (_, index) => ({
      id: seedId('b000', index + 1),
      templateKey: `fuzz-${index}`,
      subject: index % 2 === 0 ? `Hello 'quoted' %_*? ${index}` : `Plain ${index}`,
      emailTemplateType: (index % 2) + 1,
      culture: index % 3 === 0 ? 'en-US' : 'pt-PT',
      description: index % 4 === 0 ? null : `Description ${index}`,
      isActive: index % 5 !== 0,
      createdOn: new Date(Date.UTC(2025, index, 1 + index)).toISOString(),
      modifiedOn: new Date(Date.UTC(2025, index, 2 + index)).toISOString(),
      version: index + 1,
      createdBy: 'fuzzer',
    })),
  );
});

afterEach(async () => {
  await clearTemplates(client.tenant, client.org);
});

function listPath(options: Record<string, string>): string {
  return `${BASE}?${new URLSearchParams(options).toString()}`;
}

describe('properties through the Worker', () => {
  it('random valid filters, sortable orders and pages always answer 200 with a well-formed page', async () => {
    await fc.assert(
      fc.asyncProperty(validFilter, sortableOrderBy, fc.integer({ min: 0, max: 20 }), fc.boolean(), async (filter, orderBy, top, count) => {
        const options = { $filter: filter, $orderby: orderBy, $top: String(top), ...(count ? { $count: 'true' } : {}) };
        const result = await client.call<Page>('GET', listPath(options));
        expect(result.status, `${filter} -> ${result.text}`).toBe(200);
        expect(Array.isArray(result.body.items)).toBe(true);
        expect(result.body.items.length).toBeLessThanOrEqual(top);
        if (count) expect(result.body.count).toBeGreaterThanOrEqual(result.body.items.length);
      }),
      { numRuns: 150, seed: 20260301 },
    );
  });

  it('any order of known properties answers 200 (an order no index serves is sorted)', async () => {
    await fc.assert(
      fc.asyncProperty(validOrderBy, async (orderBy) => {
        const result = await client.call<Page>('GET', listPath({ $orderby: orderBy }));
        expect(result.status, result.text).toBe(200);
      }),
      { numRuns: 60, seed: 20260301 },
    );
  });

  it('random strings in literals are only ever compared: eq finds exactly the rows holding that text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("Hello 'quoted' %_*? 0", "' or 1=1 --", '%', '*')),
        async (text) => {
          const result = await client.call<Page>(
            'GET',
            listPath({ $filter: `subject eq ${quote(text)} or contains(subject, ${quote(text)}) and false`, $count: 'true' }),
          );
          expect(result.status, result.text).toBe(200);
          const expected = text === "Hello 'quoted' %_*? 0" ? 1 : 0;
          expect(result.body.count).toBe(expected);
        },
      ),
      { numRuns: 100, seed: 20260301 },
    );
  });

  it('any text as $filter answers 200 or 400, never anything else', async () => {
    const alphabet = fc.constantFrom(..."abcdeqnotrsuliyADE()', -_.:0123456789TZ@%*".split(''));
    const noise = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: alphabet, maxLength: 60 }));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          noise,
          fc.tuple(validFilter, noise).map(([filter, text]) => `${filter} ${text}`),
        ),
        async (filter) => {
          const result = await client.call('GET', listPath({ $filter: filter }));
          expect([200, 400], `${filter} -> ${result.text}`).toContain(result.status);
        },
      ),
      { numRuns: 150, seed: 20260301 },
    );
  });
});
