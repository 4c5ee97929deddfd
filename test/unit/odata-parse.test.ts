/** The `$filter` lexer and parser: every construct, precedence, coercions and every error path. */
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/odata/lexer';
import { parseFilter } from '../../src/odata/parse-filter';
import { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH } from '../../src/odata/types';
import { catchODataError, parsed, resolve } from './odata-helpers';

describe('lexer', () => {
  it('reads every token kind with its 0-based position', () => {
    const tokens = tokenize("Subject eq 'it''s' and (number ge -2.5e1) or id eq 0F8FAD5B-D9CB-469F-A165-70867728950E");
    expect(tokens.map((token) => [token.type, token.text, token.position])).toEqual([
      ['identifier', 'Subject', 0],
      ['identifier', 'eq', 8],
      ['string', "it's", 11],
      ['identifier', 'and', 19],
      ['lparen', '(', 23],
      ['identifier', 'number', 24],
      ['identifier', 'ge', 31],
      ['number', '-2.5e1', 34],
      ['rparen', ')', 40],
      ['identifier', 'or', 42],
      ['identifier', 'id', 45],
      ['identifier', 'eq', 48],
      ['guid', '0F8FAD5B-D9CB-469F-A165-70867728950E', 51],
      ['end', '', 87],
    ]);
  });

  it('reads prefixed literals, dates and number suffixes', () => {
    const tokens = tokenize("datetime'2026-01-02T03:04:05' guid'0f8fad5b-d9cb-469f-a165-70867728950e' 2026-01-02 12.5m 7L");
    expect(tokens.map((token) => [token.type, token.text])).toEqual([
      ['datetime', '2026-01-02T03:04:05'],
      ['guid', '0f8fad5b-d9cb-469f-a165-70867728950e'],
      ['datetime', '2026-01-02'],
      ['number', '12.5'],
      ['number', '7'],
      ['end', ''],
    ]);
  });
});

describe('parseFilter: valid expressions', () => {
  const cases: [string, string][] = [
    ["subject eq 'a'", "[subject eq 'a']"],
    ["Subject EQ 'a'", "[subject eq 'a']"],
    ["SUBJECT ne 'a'", "[subject ne 'a']"],
    ['number gt 1', '[number gt 1]'],
    ['number ge -1', '[number ge -1]'],
    ['number lt 1.5', '[number lt 1.5]'],
    ['amount le 10.25m', '[amount le 10.25]'],
    ["'a' eq subject", "['a' eq subject]"],
    ["subject eq 'it''s'", "[subject eq 'it's']"],
    ["subject eq ''", "[subject eq '']"],
    ['description eq null', '[description eq null]'],
    ['null ne description', '[null ne description]'],
    ['isActive eq true', '[isActive eq true]'],
    ['isActive', '{isActive}'],
    ['not isActive', '(not {isActive})'],
    ['createdOn ge 2026-01-01', '[createdOn ge datetime:2026-01-01T00:00:00.000Z]'],
    ["createdOn lt datetime'2026-01-01T10:00:00'", '[createdOn lt datetime:2026-01-01T10:00:00.000Z]'],
    ['createdOn lt 2026-01-01T10:00:00+02:00', '[createdOn lt datetime:2026-01-01T08:00:00.000Z]'],
    ["createdOn gt '2026-03-04'", '[createdOn gt datetime:2026-03-04T00:00:00.000Z]'],
    ['id eq 0F8FAD5B-D9CB-469F-A165-70867728950E', '[id eq guid:0f8fad5b-d9cb-469f-a165-70867728950e]'],
    ["id eq guid'0F8FAD5B-D9CB-469F-A165-70867728950E'", '[id eq guid:0f8fad5b-d9cb-469f-a165-70867728950e]'],
    ["id eq '0F8FAD5B-D9CB-469F-A165-70867728950E'", '[id eq guid:0f8fad5b-d9cb-469f-a165-70867728950e]'],
    ["id eq 'not-a-guid'", "[id eq 'not-a-guid']"],
    ["emailTemplateType eq 'html'", '[emailTemplateType eq 1]'],
    ['emailTemplateType eq 2', '[emailTemplateType eq 2]'],
    ["emailTemplateType in ('HTML', 2)", '[emailTemplateType in 1,2]'],
    ["subject in ('a', 'b', null)", "[subject in 'a','b',null]"],
    ["createdOn in ('2026-01-01', 2026-02-01)", '[createdOn in datetime:2026-01-01T00:00:00.000Z,datetime:2026-02-01T00:00:00.000Z]'],
    ["contains(subject, 'x')", "contains(subject,'x')"],
    ["contains(tolower(subject),'x')", "contains(tolower(subject),'x')"],
    ["startswith(subject,'x') and endswith(subject,'y')", "(startswith(subject,'x') and endswith(subject,'y'))"],
    ["substringof('x', subject)", "contains(subject,'x')"],
    ["substringof('x', subject) eq true", "contains(subject,'x')"],
    ["contains(subject, 'x') eq false", "(not contains(subject,'x'))"],
    ["contains(subject, 'x') ne true", "(not contains(subject,'x'))"],
    ["(startswith(subject,'A') or startswith(subject,'B')) eq true", "(startswith(subject,'A') or startswith(subject,'B'))"],
    ["(startswith(subject,'A') or startswith(subject,'B')) eq false", "(not (startswith(subject,'A') or startswith(subject,'B')))"],
    ["(startswith(subject,'A') or startswith(subject,'B')) ne true", "(not (startswith(subject,'A') or startswith(subject,'B')))"],
    ["(startswith(subject,'A') or startswith(subject,'B')) NE FALSE", "(startswith(subject,'A') or startswith(subject,'B'))"],
    ["(contains(subject,'x')) eq true", "contains(subject,'x')"],
    ['(isActive and number eq 1) eq false', '(not ({isActive} and [number eq 1]))'],
    ['((number eq 1 or number eq 2)) eq true and isActive', '(([number eq 1] or [number eq 2]) and {isActive})'],
    ["number eq 3 or (substringof('x', subject) eq true) eq false", "([number eq 3] or (not contains(subject,'x')))"],
    ['not (isActive) eq true', '(not {isActive})'],
    [
      "(startswith(subject,'A') or startswith(subject,'B')) eq true and (not isActive) eq false",
      "((startswith(subject,'A') or startswith(subject,'B')) and (not (not {isActive})))",
    ],
    ["toupper(subject) eq 'A'", "[toupper(subject) eq 'A']"],
    ['length(subject) gt 3', '[length(subject) gt 3]'],
    [
      'year(createdOn) eq 2026 and month(createdOn) eq 1 and day(createdOn) le 15',
      '(([year(createdOn) eq 2026] and [month(createdOn) eq 1]) and [day(createdOn) le 15])',
    ],
    ["year('2026-05-01') eq 2026", '[year(datetime:2026-05-01T00:00:00.000Z) eq 2026]'],
    ['createdOn gt createdOn', '[createdOn gt createdOn]'],
    ['externalId eq id', '[externalId eq id]'],
  ];
  it.each(cases)('%s', (expression, expected) => {
    expect(parsed(expression)).toBe(expected);
  });
});

describe('parseFilter: precedence', () => {
  it('binds and tighter than or, on either side', () => {
    expect(parsed('number eq 1 or number eq 2 and number eq 3')).toBe('([number eq 1] or ([number eq 2] and [number eq 3]))');
    expect(parsed('number eq 1 and number eq 2 or number eq 3')).toBe('(([number eq 1] and [number eq 2]) or [number eq 3])');
  });

  it('lets parentheses override precedence', () => {
    expect(parsed('(number eq 1 or number eq 2) and number eq 3')).toBe('(([number eq 1] or [number eq 2]) and [number eq 3])');
    expect(parsed('((number eq 1))')).toBe('[number eq 1]');
  });

  it('applies not to the nearest predicate only, and nests', () => {
    expect(parsed('not number eq 1 and isActive')).toBe('((not [number eq 1]) and {isActive})');
    expect(parsed('not (number eq 1 or isActive)')).toBe('(not ([number eq 1] or {isActive}))');
    expect(parsed('not not isActive')).toBe('(not (not {isActive}))');
  });

  it('is left-associative within one operator', () => {
    expect(parsed('isActive or isActive or isActive')).toBe('(({isActive} or {isActive}) or {isActive})');
  });

  it('reads the query a real integration sends', () => {
    const fields = (name: string) => resolve(name === 'Company' ? 'subject' : name === 'Party' ? 'description' : name);
    const node = parseFilter(" Company eq 'X' and Party eq 'Y'", fields);
    expect(node.type).toBe('and');
  });
});

describe('parseFilter: errors name the position and the reason', () => {
  const cases: [string, number, string][] = [
    ["nope eq 'a'", 1, "unknown property 'nope'"],
    ["subject eq 'a' and Company eq 'X'", 20, "unknown property 'Company'"],
    ["frobnicate(subject) eq 'a'", 1, "unknown function 'frobnicate'"],
    ["subject eq 'abc", 12, 'unterminated string literal'],
    ["datetime'2026-01-01", 9, 'unterminated string literal'],
    ['subject eq 1', 9, 'type mismatch: cannot compare subject (string) with a number literal'],
    ["number eq 'a'", 8, 'type mismatch'],
    ['isActive gt true', 10, 'booleans can only be compared with eq or ne'],
    ['description gt null', 13, 'null can only be compared with eq or ne'],
    ['createdOn gt 5', 11, 'type mismatch'],
    ["createdOn gt 'yesterday'", 14, "'yesterday' is not a valid ISO 8601 date-time"],
    ['createdOn gt 2026-02-30', 14, 'is not a valid ISO 8601 date-time'],
    ["emailTemplateType eq 'Pdf'", 22, "'Pdf' is not a value of emailTemplateType; use one of HTML (1), Text (2)"],
    ["contains(number, 'a')", 10, 'contains takes string arguments'],
    ['contains(subject)', 1, 'contains takes 2 arguments, not 1'],
    ['tolower(subject, subject) eq subject', 1, 'tolower takes 1 argument, not 2'],
    ['length(number) eq 1', 8, 'length needs a string argument'],
    ['year(subject) eq 1', 6, 'year needs a datetime argument'],
    ["contains(subject, 'a') eq 1", 27, 'a boolean function can only be compared with true or false'],
    ["(isActive or isActive) eq 'true'", 27, 'a parenthesised condition can only be compared with true or false'],
    ["(contains(subject, 'a')) ne null", 29, 'a parenthesised condition can only be compared with true or false'],
    ['(isActive) eq', 14, 'a parenthesised condition can only be compared with true or false (the expression ended)'],
    ['(isActive) gt true', 12, "unexpected 'gt'"],
    ["tolower(contains(subject, 'a')) eq 'x'", 9, 'is a condition, not a value'],
    ["subject eq 'a' subject", 16, "unexpected 'subject'"],
    ["subject 'a'", 9, 'expected a comparison operator'],
    ['subject eq', 11, 'expected a property, a literal or a function (the expression ended)'],
    ["(subject eq 'a'", 16, "expected ')' to close the '(' at position 1"],
    ["subject eq 'a')", 15, "unexpected ')'"],
    ["subject eq 'a' and", 19, 'the expression ended'],
    ['not', 4, 'the expression ended'],
    ['subject in ()', 13, 'expected a property, a literal or a function'],
    ["subject in ('a' 'b')", 17, "expected ',' or ')' in the in list opened at position 12"],
    ["subject in ('a', description)", 18, 'in (...) takes literal values only'],
    ["subject in 'a'", 12, "expected '(' after in"],
    ['number in (1, 2, true)', 18, 'type mismatch'],
    ['subject eq @x', 12, "unexpected character '@'"],
    ['number eq 99999999999999999999', 11, 'out of range'],
    ['number eq 1e999', 11, 'out of range'],
    ["contains(subject, 'a' 'b')", 23, "expected ',' or ')' in the argument list"],
    ['  ', 1, 'the expression is empty'],
  ];
  it.each(cases)('%s', (expression, position, reason) => {
    const error = catchODataError(() => parseFilter(expression, resolve));
    expect(error.message).toContain(`$filter at position ${position}: `);
    expect(error.message).toContain(reason);
    expect(error.errors).toEqual([
      { path: '$filter', message: { key: 'odataFaultAt', params: { reason: expect.stringContaining(reason), position } } },
    ]);
  });

  it(`refuses nesting deeper than ${MAX_FILTER_DEPTH} levels but accepts exactly that`, () => {
    const deep = (levels: number) => `${'('.repeat(levels)}isActive${')'.repeat(levels)}`;
    expect(parsed(deep(MAX_FILTER_DEPTH))).toBe('{isActive}');
    const error = catchODataError(() => parseFilter(deep(MAX_FILTER_DEPTH + 1), resolve));
    expect(error.message).toContain(`nested more than ${MAX_FILTER_DEPTH} levels`);
    const nots = catchODataError(() => parseFilter(`${'not '.repeat(MAX_FILTER_DEPTH + 1)}isActive`, resolve));
    expect(nots.message).toContain('nested more than');
    const calls = catchODataError(() =>
      parseFilter(`${'tolower('.repeat(MAX_FILTER_DEPTH + 1)}subject${')'.repeat(MAX_FILTER_DEPTH + 1)} eq 'a'`, resolve),
    );
    expect(calls.message).toContain('nested more than');
  });

  it(`refuses expressions longer than ${MAX_FILTER_LENGTH} characters`, () => {
    const error = catchODataError(() => parseFilter(`subject eq '${'a'.repeat(MAX_FILTER_LENGTH)}'`, resolve));
    expect(error.message).toContain(`longer than ${MAX_FILTER_LENGTH} characters`);
  });
});
