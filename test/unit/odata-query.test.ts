/** The query options ($select, $orderby, paging, counting) and the next-page link. */
import { describe, expect, it } from 'vitest';
import { buildNextPageLink } from '../../src/odata/page-link';
import { isServedByIndex, listOrderColumns } from '../../src/odata/order';
import { parseODataQuery } from '../../src/odata/parse-query';
import { catchODataError, FIELDS, showFilter } from './odata-helpers';

function query(search: string) {
  return parseODataQuery(new URLSearchParams(search), FIELDS);
}

describe('parseODataQuery: valid options', () => {
  it('defaults to the first 100 rows, no count, no selection, creation order', () => {
    expect(query('')).toEqual({ orderBy: [], top: 100, skip: 0, count: false });
  });

  it('reads the query a real integration sends (PascalCase, spaces after commas)', () => {
    const result = query(
      "$inlinecount=allpages&$select=Subject, Number, Id&$top=5&$filter= Subject eq 'X' and Description eq 'Y'&$orderby=CreatedOn desc",
    );
    expect(result.select?.map((field) => field.name)).toEqual(['subject', 'number', 'id']);
    expect(result.top).toBe(5);
    expect(result.count).toBe(true);
    expect(result.orderBy.map((term) => [term.field.name, term.descending])).toEqual([['createdOn', true]]);
    expect(result.filter && showFilter(result.filter)).toBe("([subject eq 'X'] and [description eq 'Y'])");
  });

  it('reads several order keys with and without a direction', () => {
    const result = query('$orderby=number desc,  subject ASC ,amount');
    expect(result.orderBy.map((term) => [term.field.name, term.descending])).toEqual([
      ['number', true],
      ['subject', false],
      ['amount', false],
    ]);
  });

  it('reads $count and $inlinecount', () => {
    expect(query('$count=true').count).toBe(true);
    expect(query('$count=FALSE').count).toBe(false);
    expect(query('$inlinecount=allpages').count).toBe(true);
    expect(query('$inlinecount=none').count).toBe(false);
  });

  it('reads $top/$skip, page/pageSize (1-based) and $top=0', () => {
    expect(query('$top=1000&$skip=20')).toMatchObject({ top: 1000, skip: 20 });
    expect(query('$top=0')).toMatchObject({ top: 0, skip: 0 });
    expect(query('page=3&pageSize=25')).toMatchObject({ top: 25, skip: 50 });
    expect(query('page=2')).toMatchObject({ top: 100, skip: 100 });
    expect(query('pageSize=7')).toMatchObject({ top: 7, skip: 0 });
  });

  it('matches option names case-insensitively and ignores other parameters', () => {
    const result = query('$FILTER=isActive&$Top=3&$SELECT=subject&opts=anything&foo=bar');
    expect(result.filter && showFilter(result.filter)).toBe('{isActive}');
    expect(result.top).toBe(3);
    expect(result.select?.map((field) => field.name)).toEqual(['subject']);
    expect(query('PAGE=2&PageSize=10')).toMatchObject({ top: 10, skip: 10 });
  });

  it('treats blank options and $select=* as absent', () => {
    expect(query('$filter=&$select=&$orderby=%20')).toEqual({ orderBy: [], top: 100, skip: 0, count: false });
    expect(query('$select=*').select).toBeUndefined();
    expect(query('$select=subject,subject').select?.map((field) => field.name)).toEqual(['subject']);
  });

  it('accepts $format=json', () => {
    expect(query('$format=json').top).toBe(100);
    expect(query('$format=application/json').top).toBe(100);
  });
});

describe('parseODataQuery: errors', () => {
  const cases: [string, string, string][] = [
    ['$top=1001', '$top', 'must be at most 1000 (got 1001)'],
    ['$top=-1', '$top', "'-1' is not a whole number of 0 or more"],
    ['$top=abc', '$top', "'abc' is not a whole number"],
    ['$top=1.5', '$top', 'is not a whole number'],
    ['$top=', '$top', 'is not a whole number'],
    ['$skip=-5', '$skip', 'is not a whole number'],
    ['$skip=x', '$skip', 'is not a whole number'],
    ['$skip=2147483648', '$skip', 'must be at most 2147483647'],
    ['page=0', 'page', 'must be at least 1 (got 0)'],
    ['pageSize=0', 'pageSize', 'must be at least 1'],
    ['pageSize=1001', 'pageSize', 'must be at most 1000'],
    ['page=2&$top=5', 'page', 'cannot be combined with $top/$skip'],
    ['$count=yes', '$count', "must be 'true' or 'false' (got 'yes')"],
    ['$inlinecount=some', '$inlinecount', "must be 'allpages' or 'none'"],
    ['$format=xml', '$format', "only 'json' is supported"],
    ['$expand=lines', '$expand', 'the query option $expand is not supported'],
    ['$search=x', '$search', 'not supported'],
    ['$top=1&$TOP=2', '$top', 'given more than once'],
    ['$select=subject,nope', '$select', "unknown property 'nope'"],
    ['$select=subject,,number', '$select', 'empty property name'],
    ['$orderby=nope desc', '$orderby', "unknown property 'nope'"],
    ['$orderby=subject sideways', '$orderby', "expected 'property [asc|desc]', got 'subject sideways'"],
    ['$orderby=subject,', '$orderby', "got ''"],
    ['$filter=nope eq 1', '$filter', "unknown property 'nope'"],
  ];
  it.each(cases)('%s', (search, path, reason) => {
    const error = catchODataError(() => query(search));
    expect(error.errors[0]?.path).toBe(path);
    expect(error.message).toContain(reason);
  });

  it('names the position of a bad $select or $orderby entry', () => {
    expect(catchODataError(() => query('$select=subject, nope')).message).toBe("$select at position 10: unknown property 'nope'");
    expect(catchODataError(() => query('$orderby=subject,  nope desc')).message).toBe("$orderby at position 11: unknown property 'nope'");
  });
});

describe('buildNextPageLink', () => {
  it('writes $top and the $skiptoken and keeps every other option', () => {
    const link = buildNextPageLink(new URL("https://api.test/x/odata?$filter=subject eq 'a b'&$count=true&$top=5"), 5, 'tok');
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe('https://api.test/x/odata');
    expect(url.searchParams.get('$filter')).toBe("subject eq 'a b'");
    expect(url.searchParams.get('$count')).toBe('true');
    expect(url.searchParams.get('$top')).toBe('5');
    expect(url.searchParams.get('$skiptoken')).toBe('tok');
  });

  it('writes the default page size when $top was not given', () => {
    const url = new URL(buildNextPageLink(new URL('https://api.test/x/odata'), 100, 'tok'));
    expect([url.searchParams.get('$top'), url.searchParams.get('$skiptoken')]).toEqual(['100', 'tok']);
  });

  it('keeps pageSize in the page/pageSize style and drops page', () => {
    const url = new URL(buildNextPageLink(new URL('https://api.test/x/odata?page=2&pageSize=10'), 10, 'tok'));
    expect([...url.searchParams.keys()].sort()).toEqual(['$skiptoken', 'pageSize']);
    expect(url.searchParams.get('pageSize')).toBe('10');
  });

  it('replaces paging options in any spelling, $skip and an earlier token included', () => {
    const url = new URL(buildNextPageLink(new URL('https://api.test/x/odata?$TOP=5&$Skip=5&$SkipToken=old'), 5, 'new'));
    expect([...url.searchParams.keys()].sort()).toEqual(['$skiptoken', '$top']);
    expect(url.searchParams.get('$skiptoken')).toBe('new');
  });
});

describe("parseODataQuery: any order of the list's properties", () => {
  const orders = [
    { fields: ['subject', 'createdOn', 'id'], required: 1 },
    { fields: ['number', 'subject', 'createdOn', 'id'], required: 2 },
    { fields: ['description', 'createdOn', 'id'], required: 1 },
    { fields: ['createdOn', 'id'], required: 1 },
  ];
  const served = (search: string) => isServedByIndex(listOrderColumns(query(search).orderBy), orders);

  it('accepts any number of keys, each asc or desc, null-able properties included', () => {
    expect(query('$orderby=amount').orderBy).toHaveLength(1);
    expect(query('$orderby=Subject desc,Number asc').orderBy.map((term) => [term.field.name, term.descending])).toEqual([
      ['subject', true],
      ['number', false],
    ]);
    expect(query('$orderby=number, subject desc, createdOn asc, description, id desc').orderBy).toHaveLength(5);
  });

  it('refuses a property the list does not have, naming it', () => {
    expect(catchODataError(() => query('$orderby=subject, locations desc')).message).toBe(
      "$orderby at position 10: unknown property 'locations'",
    );
  });

  it("reads an order from an index when its keys are an index's columns (then the tie-breakers), one direction", () => {
    expect(served('')).toBe(true);
    expect(served('$orderby=subject desc')).toBe(true);
    expect(served('$orderby=number, subject, createdOn asc')).toBe(true);
    expect(served('$orderby=createdOn desc, id desc')).toBe(true);
    expect(served('$orderby=description desc')).toBe(true);
  });

  it('sorts any other order: other keys, a prefix of an index, mixed directions, decimals', () => {
    expect(served('$orderby=amount')).toBe(false);
    expect(served('$orderby=number')).toBe(false);
    expect(served('$orderby=subject, number')).toBe(false);
    expect(served('$orderby=subject desc, createdOn')).toBe(false);
    expect(served('$orderby=id')).toBe(false);
  });

  it('reads $skiptoken, alone or with $top/pageSize, never with $skip or page', () => {
    expect(query('$skiptoken=abc&$top=5')).toMatchObject({ skipToken: 'abc', top: 5, skip: 0 });
    expect(query('pageSize=5&$SkipToken=abc')).toMatchObject({ skipToken: 'abc', top: 5 });
    expect(catchODataError(() => query('$skiptoken=abc&$skip=5')).message).toBe('$skiptoken: cannot be combined with $skip');
    expect(catchODataError(() => query('$skiptoken=abc&page=2')).message).toBe('$skiptoken: cannot be combined with page');
  });
});
