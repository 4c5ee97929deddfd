/** The SQL compiler: the exact SQL text and bound values of each construct, order terms and the D1 parameter limit. */
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { checkParameterLimit, compileODataQuery } from '../../src/odata/compile';
import { escapeGlob, fittingPart, fitsPatternLimit, hasTrigram } from '../../src/odata/glob';
import { compileKeyset, compileKeysetArms, compileOrderBy, listOrderColumns } from '../../src/odata/order';
import type { CursorValue } from '../../src/odata/order';
import { parseFilter } from '../../src/odata/parse-filter';
import { buildFieldResolver } from '../../src/odata/parse-query';
import type { FilterNode } from '../../src/odata/types';
import { catchODataError, compiled, FIELDS, fieldNamed, resolve } from './odata-helpers';

describe('compile $filter', () => {
  const cases: [string, string, unknown[]][] = [
    ["subject eq 'a'", '("subject" IS ?)', ['a']],
    ["subject ne 'a'", '("subject" IS NOT ?)', ['a']],
    ['number gt 1', '("number" > ?)', [1]],
    ['number ge 1 and number le 9', '(("number" >= ?) AND ("number" <= ?))', [1, 9]],
    ['amount lt 10.5', '(CAST("amount" AS NUMERIC) < ?)', [10.5]],
    ['isActive eq true', '("is_active" IS ?)', [1]],
    ['isActive eq false', '("is_active" IS ?)', [0]],
    ['isActive', '("is_active" = 1)', []],
    ['description eq null', '("description" IS NULL)', []],
    ['null ne description', '("description" IS NOT NULL)', []],
    ['null eq null', '(1 = 1)', []],
    ["createdOn ge '2026-01-01'", '("created_on" >= ?)', ['2026-01-01T00:00:00.000Z']],
    ['id eq 0F8FAD5B-D9CB-469F-A165-70867728950E', '("id" IS ?)', ['0f8fad5b-d9cb-469f-a165-70867728950e']],
    ["emailTemplateType eq 'Text'", '("email_template_type" IS ?)', [2]],
    ["subject in ('a', 'b')", '("subject" IN (?, ?))', ['a', 'b']],
    ["subject in ('a', null)", '("subject" IN (?) OR "subject" IS NULL)', ['a']],
    ['subject in (null)', '("subject" IS NULL)', []],
    ["contains(subject, 'a*b?[c]')", '("subject" GLOB ?)', ['*a[*]b[?][[]c]*']],
    ["startswith(subject, 'ab')", '("subject" GLOB ?)', ['ab*']],
    ["endswith(subject, 'ab')", '("subject" GLOB ?)', ['*ab']],
    ["contains(tolower(subject), 'x')", '(lower("subject") GLOB ?)', ['*x*']],
    ['contains(subject, description)', '(instr("subject", "description") > 0)', []],
    ['startswith(subject, description)', '(instr("subject", "description") = 1)', []],
    [
      'endswith(subject, description)',
      '((length("description") <= length("subject")) AND (substr("subject", ((length("subject") - length("description")) + 1)) = "description"))',
      [],
    ],
    ["toupper(subject) eq 'A'", '(upper("subject") IS ?)', ['A']],
    ['length(subject) eq 3', '(length("subject") IS ?)', [3]],
    ['year(createdOn) eq 2026', '(CAST(substr("created_on", 1, 4) AS INTEGER) IS ?)', [2026]],
    ['month(createdOn) eq 2', '(CAST(substr("created_on", 6, 2) AS INTEGER) IS ?)', [2]],
    ['day(createdOn) eq 3', '(CAST(substr("created_on", 9, 2) AS INTEGER) IS ?)', [3]],
    ['isActive or number eq 1 or number eq 2', '(("is_active" = 1) OR ("number" IS ?) OR ("number" IS ?))', [1, 2]],
    ['not (number gt 1)', '(NOT coalesce("number" > ?, 0))', [1]],
    ['not (number gt 1 and isActive)', '(NOT (coalesce("number" > ?, 0) AND ("is_active" = 1)))', [1]],
    ["not (subject in ('a'))", '(NOT (coalesce("subject" IN (?), 0)))', ['a']],
    ["not contains(subject, 'a')", '(NOT ("subject" GLOB ?))', ['*a*']],
  ];
  it.each(cases)('%s', (expression, sql, params) => {
    expect(compiled(expression)).toEqual({ sql, params });
  });

  it('splits long chains in balanced halves so they stay shallow', () => {
    const chain = Array.from({ length: 600 }, () => 'isActive').join(' or ');
    const { sql } = compiled(chain);
    expect(sql.split('"is_active" = 1').length - 1).toBe(600);
    expect(compiled('isActive or isActive or isActive or isActive or isActive').sql).toBe(
      '((("is_active" = 1) OR ("is_active" = 1) OR ("is_active" = 1)) OR (("is_active" = 1) OR ("is_active" = 1)))',
    );
  });

  it('refuses a filter whose SQL expression would be deeper than D1 allows', () => {
    let filter: FilterNode = { type: 'value', value: { type: 'property', field: fieldNamed('isActive'), position: 0 } };
    for (let level = 0; level < 94; level += 1) filter = { type: 'not', operand: filter };
    expect(() => compileODataQuery({ filter, orderBy: [], top: 1, skip: 0, count: false })).not.toThrow();
    const deeper: FilterNode = { type: 'not', operand: filter };
    const error = catchODataError(() => compileODataQuery({ filter: deeper, orderBy: [], top: 1, skip: 0, count: false }));
    expect(error.message).toContain('the filter is too complex: its SQL expression would be 97 levels deep');
  });

  it('records the position of every bound value in binding order', () => {
    const query = compileODataQuery({
      filter: parseFilter("number eq 1 or subject in ('a', 'b')", resolve),
      orderBy: [],
      top: 1,
      skip: 0,
      count: false,
    });
    expect(query.boundPositions).toEqual([10, 27, 32]);
    expect(query.parameters).toBe(3);
  });

  it('never writes a literal into the SQL text', () => {
    const { sql } = compiled("subject eq 'x'' OR 1=1 --' or contains(description, ''';DROP TABLE t;')");
    expect(sql).toBe('(("subject" IS ?) OR ("description" GLOB ?))');
  });
});

describe('escapeGlob', () => {
  it('turns each GLOB wildcard into a one-character class', () => {
    expect(escapeGlob('a*b?c[d]e')).toBe('a[*]b[?]c[[]d]e');
    expect(escapeGlob('plain text')).toBe('plain text');
  });
});

describe('the text search term (the trigram index finds its candidates)', () => {
  const indexed = buildFieldResolver(FIELDS.map((field) => (field.kind === 'string' ? { ...field, textIndex: 'things_text' } : field)));
  const termOf = (expression: string) =>
    compileODataQuery({ filter: parseFilter(expression, indexed), orderBy: [], top: 10, skip: 0, count: false }).textSearch;

  it('is the first top-level and term with a run of 3 characters, with its GLOB pattern', () => {
    expect(termOf("contains(subject,'abc')")).toEqual({ index: 'things_text', column: 'subject', pattern: '*abc*' });
    expect(termOf("number eq 1 and contains(subject,'ab') and endswith(description,'x*yzw')")).toEqual({
      index: 'things_text',
      column: 'description',
      pattern: '*x[*]yzw',
    });
    expect(termOf("substringof('abc', subject)")).toMatchObject({ column: 'subject', pattern: '*abc*' });
  });

  it('is none under or, under not, around a function, for short terms or fields without the index', () => {
    for (const expression of [
      "contains(subject,'abc') or number eq 1",
      "not contains(subject,'abc')",
      "contains(tolower(subject),'abc')",
      "contains(subject,'ab')",
      "contains(subject,'a*b?c')",
      'contains(subject, description)',
    ]) {
      expect(termOf(expression), expression).toBeUndefined();
    }
    expect(
      compileODataQuery({ filter: parseFilter("contains(subject,'abc')", resolve), orderBy: [], top: 10, skip: 0, count: false })
        .textSearch,
    ).toBeUndefined();
  });

  it('hasTrigram counts characters, not UTF-16 units, between wildcards', () => {
    expect(hasTrigram('日本語')).toBe(true);
    expect(hasTrigram('日本')).toBe(false);
    expect(hasTrigram('ab*cd?e[f')).toBe(false);
    expect(hasTrigram('ab*cde')).toBe(true);
  });
});

describe("text terms and D1's 50-byte limit on GLOB patterns", () => {
  const patternOf = (name: 'contains' | 'startswith' | 'endswith', text: string) =>
    name === 'contains' ? `*${escapeGlob(text)}*` : name === 'startswith' ? `${escapeGlob(text)}*` : `*${escapeGlob(text)}`;
  const bytes = (text: string) => new TextEncoder().encode(text).length;

  it('a literal whose pattern fits is one GLOB; a longer one is compared as text', () => {
    const sqlOf = (filter: string) => compiled(filter).sql;
    expect(sqlOf(`contains(subject,'${'a'.repeat(48)}')`)).toContain('GLOB');
    expect(sqlOf(`contains(subject,'${'a'.repeat(49)}')`)).not.toContain('GLOB');
    expect(sqlOf(`startswith(subject,'${'a'.repeat(49)}')`)).toContain('GLOB');
    expect(sqlOf(`startswith(subject,'${'a'.repeat(50)}')`)).toMatch(/instr\(/);
    expect(sqlOf(`endswith(subject,'${'日'.repeat(17)}')`)).toMatch(/substr\(/);
    expect(sqlOf(`contains(subject,'${'*'.repeat(16)}')`)).toContain('GLOB');
    expect(sqlOf(`contains(subject,'${'*'.repeat(17)}')`)).not.toContain('GLOB');
  });

  it('the index looks a long term up by its longest start (end, for endswith) whose pattern fits', () => {
    const text = `${'ab*'.repeat(10)}${'日本'.repeat(10)}${'x'.repeat(30)}`;
    for (const name of ['contains', 'startswith', 'endswith'] as const) {
      const part = fittingPart(name, text);
      expect(fitsPatternLimit(patternOf(name, part)), name).toBe(true);
      expect(bytes(patternOf(name, part))).toBeLessThanOrEqual(50);
      // One more character would not fit.
      const longer =
        name === 'endswith' ? [...text].slice(-[...part].length - 1).join('') : [...text].slice(0, [...part].length + 1).join('');
      expect(fitsPatternLimit(patternOf(name, longer)), name).toBe(false);
      expect(name === 'endswith' ? text.endsWith(part) : text.startsWith(part), name).toBe(true);
    }
    expect(fittingPart('contains', 'short')).toBe('short');
    const indexed = buildFieldResolver(FIELDS.map((field) => (field.kind === 'string' ? { ...field, textIndex: 'things_text' } : field)));
    const filter = parseFilter(`contains(subject,'${'x'.repeat(30)}${'y'.repeat(30)}')`, indexed);
    expect(compileODataQuery({ filter, orderBy: [], top: 10, skip: 0, count: false }).textSearch?.pattern).toBe(
      `*${'x'.repeat(30)}${'y'.repeat(18)}*`,
    );
    // A long term of wildcards only has no part the index can look up.
    const wild = parseFilter(`contains(subject,'${'*?'.repeat(30)}')`, indexed);
    expect(compileODataQuery({ filter: wild, orderBy: [], top: 10, skip: 0, count: false }).textSearch).toBeUndefined();
  });
});

describe('compile $orderby', () => {
  const dialect = new SQLiteAsyncDialect();
  const order = (...terms: [string, boolean][]) =>
    dialect.sqlToQuery(compileOrderBy(terms.map(([name, descending]) => ({ field: fieldNamed(name), descending })))).sql;

  it('defaults to creation order with id as the tie-breaker', () => {
    expect(order()).toBe('"created_on" ASC, "id" ASC');
  });

  it('puts the user keys first and follows the last key direction for the tie-breakers', () => {
    expect(order(['subject', false])).toBe('"subject" ASC, "created_on" ASC, "id" ASC');
    expect(order(['subject', false], ['number', true])).toBe('"subject" ASC, "number" DESC, "created_on" DESC, "id" DESC');
    expect(order(['amount', true])).toBe('CAST("amount" AS NUMERIC) DESC, "created_on" DESC, "id" DESC');
  });

  it('does not repeat a column', () => {
    expect(order(['createdOn', true])).toBe('"created_on" DESC, "id" DESC');
    expect(order(['subject', false], ['subject', true])).toBe('"subject" ASC, "created_on" ASC, "id" ASC');
  });
});

describe('compile a $skiptoken position (keyset)', () => {
  const dialect = new SQLiteAsyncDialect();
  const nullable = { ...fieldNamed('description'), nullable: true };
  const field = (name: string) => (name === 'description' ? nullable : fieldNamed(name));
  const keyset = (terms: [string, boolean][], values: CursorValue[]) =>
    dialect.sqlToQuery(compileKeyset(listOrderColumns(terms.map(([name, descending]) => ({ field: field(name), descending }))), values));

  it('is one row-value comparison in one direction over columns without NULL (a seek in the index)', () => {
    expect(keyset([['subject', true]], ['s', 'c', 'i'])).toMatchObject({
      sql: '(("subject", "created_on", "id") < (?, ?, ?))',
      params: ['s', 'c', 'i'],
    });
  });

  it('expands mixed directions to an OR of steps, the tail in one direction one row value, entered at a range on the first column', () => {
    expect(
      keyset(
        [
          ['subject', true],
          ['number', false],
        ],
        ['s', 2, 'c', 'i'],
      ).sql,
    ).toBe('("subject" <= ? AND (("subject" < ?) OR ("subject" = ? AND ("number", "created_on", "id") > (?, ?, ?))))');
  });

  it('puts NULL first ascending: after a NULL come the other NULLs by the tie-breakers, then every value', () => {
    expect(keyset([['description', false]], [null, 'c', 'i']).sql).toBe(
      '(("description" IS NOT NULL) OR ("description" IS NULL AND ("created_on", "id") > (?, ?)))',
    );
    expect(keyset([['description', false]], ['d', 'c', 'i']).sql).toBe(
      '("description" >= ? AND (("description" > ?) OR ("description" = ? AND ("created_on", "id") > (?, ?))))',
    );
  });

  it('puts NULL last descending: after a value come smaller values and the NULLs; after a NULL only NULLs', () => {
    expect(keyset([['description', true]], ['d', 'c', 'i']).sql).toBe(
      '((("description" < ? OR "description" IS NULL)) OR ("description" = ? AND ("created_on", "id") < (?, ?)))',
    );
    expect(keyset([['description', true]], [null, 'c', 'i']).sql).toBe('("description" IS NULL AND ("created_on", "id") < (?, ?))');
  });

  it('splits a position over a null-able first column in two ranges of the index, in page order', () => {
    const arms = (terms: [string, boolean][], values: CursorValue[]) =>
      compileKeysetArms(listOrderColumns(terms.map(([name, descending]) => ({ field: field(name), descending }))), values)?.map(
        (arm) => dialect.sqlToQuery(arm).sql,
      );
    expect(arms([['description', false]], [null, 'c', 'i'])).toEqual([
      '("description" IS NULL AND (("created_on", "id") > (?, ?)))',
      '("description" IS NOT NULL)',
    ]);
    expect(arms([['description', true]], ['d', 'c', 'i'])).toEqual([
      '("description" <= ? AND (("description" < ?) OR ("description" = ? AND (("created_on", "id") < (?, ?)))))',
      '("description" IS NULL)',
    ]);
    expect(arms([['description', false]], ['d', 'c', 'i'])).toBeUndefined();
    expect(arms([['description', true]], [null, 'c', 'i'])).toBeUndefined();
    expect(arms([['subject', true]], ['s', 'c', 'i'])).toBeUndefined();
  });
});

describe('D1 parameter limit', () => {
  const query = compileODataQuery({
    filter: parseFilter("subject in ('a', 'b', 'c')", resolve),
    orderBy: [],
    top: 1,
    skip: 0,
    count: false,
  });

  it('accepts a statement at the limit', () => {
    expect(() => checkParameterLimit(7, query, 7)).not.toThrow();
  });

  it('refuses a statement over the limit, pointing at the first value that does not fit', () => {
    const error = catchODataError(() => checkParameterLimit(7, query, 6));
    expect(error.message).toBe(
      '$filter at position 23: the query needs 7 bound values but D1 allows at most 6 per statement; use at most 2 literal values in $filter',
    );
  });
});
