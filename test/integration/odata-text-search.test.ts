/**
 * contains/startswith/endswith through the trigram index answer exactly what the scan with GLOB answered before it
 * (case-sensitive, wildcards as plain text, NULLs never matching, short terms included): a differential check on
 * generated rows, comparing the API's answer with the previous implementation's SQL run on the same rows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { escapeGlob } from '../../src/odata/compile';
import type { TenantClient } from '../helpers/api';
import { clearTemplates, seedId, seedTemplates } from '../helpers/odata-seed';
import type { SeedTemplate } from '../helpers/odata-seed';
import { openTenantD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const BASE = '/operations/emailTemplates/odata';
const ALPHABET = ['a', 'b', 'A', 'B', 'ab', 'Ab', 'x', ' ', '*', '?', '[', ']', '%', '_', "'", 'é', 'É', '€', '日本', 'ß', '1'];

/** A small deterministic generator (mulberry32), so failures replay. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(20261123);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const text = (parts: number) => Array.from({ length: parts }, () => pick(ALPHABET)).join('');

const ROWS: readonly SeedTemplate[] = Array.from({ length: 120 }, (_, index) => ({
  id: seedId('d000', index + 1),
  templateKey: `k${index}-${text(3)}`,
  subject: text(2 + (index % 9)),
  emailTemplateType: 1,
  culture: 'en-US',
  description: index % 6 === 0 ? null : text(1 + (index % 5)),
  isActive: true,
  createdOn: `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}.000Z`,
  modifiedOn: '2026-01-01T00:00:00.000Z',
  version: 1,
  createdBy: 'seed',
}));

/** Search terms: pieces of stored text (1 to 6 characters, so below and above the trigram length), and random ones. */
const TERMS: readonly string[] = [
  ...Array.from({ length: 30 }, (_, index) => {
    const source = [...(ROWS[(index * 7) % ROWS.length]?.subject ?? 'abc')];
    const start = Math.floor(next() * source.length);
    return source.slice(start, start + 1 + (index % 6)).join('');
  }),
  ...Array.from({ length: 8 }, (_, index) => text(1 + (index % 4))),
  'ab',
  'AB',
  'aba',
  '*?[',
  '[ab]',
  'é€',
];

const FUNCTIONS = { contains: (t: string) => `*${t}*`, startswith: (t: string) => `${t}*`, endswith: (t: string) => `*${t}` } as const;

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('textsearch');
  await seedTemplates(client.tenant, client.org, ROWS);
});

afterEach(async () => {
  await clearTemplates(client.tenant, client.org);
});

/** The previous implementation: a GLOB on the column, wildcards of the term escaped. */
async function answerWithGlob(column: string, pattern: string, negated: boolean): Promise<string[]> {
  const db = await openTenantD1({ tenantKey: client.tenant, orgKey: client.org });
  const condition = negated ? `NOT (${column} GLOB ?)` : `${column} GLOB ?`;
  const result = await db
    .prepare(`SELECT id FROM email_templates WHERE tenant_key = ? AND org_key = ? AND ${condition} ORDER BY created_on, id`)
    .bind(client.tenant, client.org, pattern)
    .all<{ id: string }>();
  return result.results.map((row) => row.id);
}

async function answerWithApi(filter: string): Promise<string[]> {
  const result = await client.call<{ items: { id: string }[] }>(
    'GET',
    `${BASE}?${new URLSearchParams({ $filter: filter, $select: 'id', $top: '1000' })}`,
  );
  expect(result.status, `${filter}: ${result.text}`).toBe(200);
  return result.body.items.map((item) => item.id);
}

const literal = (term: string) => `'${term.replace(/'/g, "''")}'`;

describe('text search through the trigram index answers what GLOB answered', { timeout: 60_000 }, () => {
  it.each(['subject', 'description'])('%s: contains, startswith, endswith and their negations, every term', async (column) => {
    for (const term of TERMS) {
      for (const [name, toPattern] of Object.entries(FUNCTIONS)) {
        const pattern = toPattern(escapeGlob(term));
        const call = `${name}(${column},${literal(term)})`;
        expect(await answerWithApi(call), call).toEqual(await answerWithGlob(column, pattern, false));
        expect(await answerWithApi(`not ${call}`), `not ${call}`).toEqual(await answerWithGlob(column, pattern, true));
      }
    }
  });

  it('combines with other conditions and the v2 spelling', async () => {
    const term = [...(ROWS[3]?.subject ?? '')].slice(0, 3).join('');
    const api = await answerWithApi(
      `substringof(${literal(term)}, subject) and contains(templateKey, 'k1') or endswith(description, 'ab')`,
    );
    const expected = ROWS.filter(
      (row) => (row.subject.includes(term) && row.templateKey.includes('k1')) || (row.description ?? '').endsWith('ab'),
    ).map((row) => row.id);
    expect([...api].sort()).toEqual([...expected].sort());
  });
});
