/**
 * contains/startswith/endswith with the trigram index answer exactly what the scan with GLOB answered before it
 * (case-sensitive, wildcards as plain text, NULLs never matching, short terms included): a differential check on
 * generated rows, comparing the API's answer (rows, `$count`, keyset pages) with the previous implementation's SQL
 * run on the same rows, with few matches (the rowid arm) and with more than the index's bound (the scan arm).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEXT_SEARCH_CANDIDATES } from '../../src/resources/entities/text-search';
import { escapeGlob } from '../../src/odata/glob';
import { call, ORIGIN } from '../helpers/api';
import type { CallResult, TenantClient } from '../helpers/api';
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

/** The previous implementation: GLOBs on the columns (wildcards of the terms escaped) in the default order. */
async function answerWithSql(condition: string, params: readonly string[]): Promise<string[]> {
  const db = await openTenantD1({ tenantKey: client.tenant, orgKey: client.org });
  const result = await db
    .prepare(`SELECT id FROM email_templates WHERE tenant_key = ? AND org_key = ? AND (${condition}) ORDER BY created_on, id`)
    .bind(client.tenant, client.org, ...params)
    .all<{ id: string }>();
  return result.results.map((row) => row.id);
}

function answerWithGlob(column: string, pattern: string, negated: boolean): Promise<string[]> {
  return answerWithSql(negated ? `NOT (${column} GLOB ?)` : `${column} GLOB ?`, [pattern]);
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

interface Page {
  readonly items: { id: string }[];
  readonly count?: number;
  readonly nextPageLink?: string;
}

/** Every page of `filter` (7 rows a page, keyset links) with `$count`: the ids in order and every page's count. */
async function walkWithApi(filter: string): Promise<{ ids: string[]; counts: (number | undefined)[] }> {
  const ids: string[] = [];
  const counts: (number | undefined)[] = [];
  const first = await client.call<Page>(
    'GET',
    `${BASE}?${new URLSearchParams({ $filter: filter, $select: 'id', $top: '7', $count: 'true' })}`,
  );
  let result: CallResult<Page> | undefined = first;
  while (result !== undefined) {
    expect(result.status, `${filter}: ${result.text}`).toBe(200);
    ids.push(...result.body.items.map((item) => item.id));
    counts.push(result.body.count);
    const link: string | undefined = result.body.nextPageLink;
    result = link === undefined ? undefined : await call<Page>('GET', link.slice(ORIGIN.length), { token: client.token });
  }
  return { ids, counts };
}

/** Filters of several terms (and, or, not, short and long terms) with the same condition in SQL. */
function buildCombinations(): [string, string, string[]][] {
  const combinations: [string, string, string[]][] = [];
  for (let index = 0; index < 12; index += 1) {
    const row = ROWS[(index * 11) % ROWS.length];
    const source = [...(row?.subject ?? 'abcd')];
    const long = source.slice(0, 3 + (index % 3)).join('');
    const short = pick(ALPHABET);
    const other = [...(row?.description ?? 'ab')].slice(0, 1 + (index % 3)).join('');
    const [l, s, o] = [escapeGlob(long), escapeGlob(short), escapeGlob(other)];
    combinations.push(
      [
        `contains(subject,${literal(long)}) and contains(description,${literal(other)})`,
        'subject GLOB ? AND description GLOB ?',
        [`*${l}*`, `*${o}*`],
      ],
      [
        `contains(subject,${literal(short)}) and startswith(subject,${literal(long)})`,
        'subject GLOB ? AND subject GLOB ?',
        [`*${s}*`, `${l}*`],
      ],
      [
        `contains(subject,${literal(long)}) and not contains(description,${literal(short)})`,
        'subject GLOB ? AND NOT (description GLOB ?)',
        [`*${l}*`, `*${s}*`],
      ],
      [
        `contains(subject,${literal(long)}) or endswith(description,${literal(other)})`,
        'subject GLOB ? OR description GLOB ?',
        [`*${l}*`, `*${o}`],
      ],
      [
        `endswith(subject,${literal(long)}) and (contains(templateKey,'k1') or not isActive)`,
        "subject GLOB ? AND (template_key GLOB '*k1*' OR NOT is_active)",
        [`*${l}`],
      ],
    );
  }
  return combinations;
}

describe('several terms, both arms, counts and keyset pages answer what GLOB answered', { timeout: 120_000 }, () => {
  const check = async (combinations: readonly [string, string, string[]][]) => {
    let found = 0;
    for (const [filter, condition, params] of combinations) {
      const expected = await answerWithSql(condition, params);
      found += expected.length > 7 ? 1 : 0;
      const walked = await walkWithApi(filter);
      expect(walked.ids, filter).toEqual(expected);
      expect(new Set(walked.counts), filter).toEqual(new Set([expected.length]));
    }
    // The generated terms find rows, several pages of them for some filters.
    expect(found).toBeGreaterThan(0);
  };

  it('with few matches in the database (rows by rowid from the index candidates)', async () => {
    await check(buildCombinations());
  });

  it('with more matches than the index bound (the page-order scan), and beside them few', async () => {
    const common: SeedTemplate[] = Array.from({ length: TEXT_SEARCH_CANDIDATES + 5 }, (_, index) => ({
      ...(ROWS[0] as SeedTemplate),
      id: seedId('d100', index + 1),
      templateKey: `c${index}`,
      subject: `Common ${text(2)}`,
      description: index % 3 === 0 ? null : `often ${text(2)}`,
      createdOn: `2026-01-02T00:00:${String(index % 60).padStart(2, '0')}.000Z`,
    }));
    for (let start = 0; start < common.length; start += 200)
      await seedTemplates(client.tenant, client.org, common.slice(start, start + 200));
    await check([
      ["contains(subject,'ommon')", 'subject GLOB ?', ['*ommon*']],
      ["startswith(subject,'Comm') and contains(description,'ften')", 'subject GLOB ? AND description GLOB ?', ['Comm*', '*ften*']],
      ["contains(subject,'ommon') and not contains(templateKey,'c1')", 'subject GLOB ? AND NOT (template_key GLOB ?)', ['*ommon*', '*c1*']],
      ["contains(subject,'mmo') and contains(subject,'a')", 'subject GLOB ? AND subject GLOB ?', ['*mmo*', '*a*']],
      ...buildCombinations().slice(0, 15),
    ]);
  });
});

describe('terms longer than D1 allows a GLOB pattern (50 bytes)', () => {
  const LONG = `Quarterly report*? [draft] ${'日本'.repeat(6)} for the board of directors, ${'x'.repeat(40)}`;
  const LONG_ROWS: readonly SeedTemplate[] = [LONG, `${LONG} (copy)`, `Re: ${LONG}`, LONG.slice(0, 60), LONG.replace('board', 'Board')].map(
    (subject, index) => ({
      ...(ROWS[0] as SeedTemplate),
      id: seedId('d200', index + 1),
      templateKey: `long${index}`,
      subject,
      description: subject,
    }),
  );
  const matches = {
    contains: (s: string, t: string) => s.includes(t),
    startswith: (s: string, t: string) => s.startsWith(t),
    endswith: (s: string, t: string) => s.endsWith(t),
  };

  it('answer what a text comparison answers, through the index and without it, negated too', async () => {
    await seedTemplates(client.tenant, client.org, LONG_ROWS);
    const all = [...ROWS, ...LONG_ROWS];
    const terms = [
      LONG,
      LONG.slice(10),
      LONG.slice(0, 70),
      LONG.slice(-70),
      `${LONG}!`,
      '*'.repeat(40),
      `${'日本'.repeat(6)} for the board of directors`,
    ];
    for (const term of terms) {
      for (const [name, test] of Object.entries(matches)) {
        for (const column of ['subject', 'description'] as const) {
          const call = `${name}(${column},${literal(term)})`;
          const expected = all.filter((row) => row[column] != null && test(row[column] ?? '', term)).map((row) => row.id);
          expect([...(await answerWithApi(call))].sort(), call).toEqual([...expected].sort());
          const negated = all.filter((row) => row[column] != null && !test(row[column] ?? '', term)).map((row) => row.id);
          expect([...(await answerWithApi(`not ${call}`))].sort(), `not ${call}`).toEqual([...negated].sort());
        }
      }
    }
  });
});
