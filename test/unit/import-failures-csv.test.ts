import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { message } from '../../src/messages/catalogue';
import { encodeCell, encodeFailedRow, encodeFailuresHeader } from '../../src/services/imports/files/failures-csv';
import { encodeKeptFailures, MAX_KEPT_FAILURES_CHARS, MAX_KEPT_VALUE_CHARS } from '../../src/services/imports/files/failures-kept';

describe('failures CSV', () => {
  it('escapes cells a spreadsheet would run as formulas and quotes what CSV needs', () => {
    expect(['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx'].map(encodeCell)).toEqual(["'=1+1", "'+1", "'-2", "'@SUM(A1)", "'\tx", `"'\rx"`]);
    expect(encodeCell('a,b')).toBe('"a,b"');
    expect(encodeCell('say "hi"')).toBe('"say ""hi"""');
    expect(encodeCell('two\nlines')).toBe('"two\nlines"');
    expect(encodeCell(12)).toBe('12');
    expect(encodeCell(['L1'])).toBe('"[""L1""]"');
    expect(encodeCell(null)).toBe('');
  });

  it('quotes a cell holding `;` and escapes a formula after each `;` (a `;` locale splits the line there, quotes or not)', () => {
    expect(encodeCell('x;=cmd|"/c calc"!A1')).toBe('"x;\'=cmd|""/c calc""!A1"');
    expect(encodeCell('a;b')).toBe('"a;b"');
    expect(encodeCell('1;+2;-3;@x')).toBe(`"1;'+2;'-3;'@x"`);
    expect(encodeCell('=a;=b')).toBe(`"'=a;'=b"`);
    // Read back as a `;` locale would: no cell of the line starts with a formula character.
    const line = `1,path,message,${encodeCell('x;=cmd')},${encodeCell('y;@z')}`;
    expect(line.split(';').every((cell) => !/^[=+\-@\t\r]/.test(cell))).toBe(true);
    expect(parse(line)).toEqual([['1', 'path', 'message', "x;'=cmd", "y;'@z"]]);
  });

  it("keeps at most MAX_KEPT_FAILURES_CHARS of a chunk's failures: values cut, then rows with their first problem, then a count", () => {
    const problem = message('tooLong', { field: 'notificationBody', max: 10 });
    const long = 'é'.repeat(600_000);
    const rows = Array.from({ length: 2000 }, (_, index) => ({
      row: index + 2,
      errors: [problem, problem].map((item) => ({ path: 'notificationBody', message: item })),
      values: { notificationBody: long, templateKey: `k${index}` },
    }));
    const kept = encodeKeptFailures(rows);
    expect(kept.length).toBeLessThanOrEqual(MAX_KEPT_FAILURES_CHARS);
    const back = JSON.parse(kept) as {
      row: number;
      errors: { message: { key: string; params: Record<string, unknown> } }[];
      values: Record<string, string>;
    }[];
    expect(back[0]?.values.notificationBody).toBe(`${'é'.repeat(MAX_KEPT_VALUE_CHARS)}…`);
    expect(back[0]?.errors).toHaveLength(2);
    const last = back.at(-1);
    expect(last?.errors[0]?.message).toMatchObject({ key: 'importFailuresCut', params: { count: 2000 - back.length + 1 } });
    expect(encodeKeptFailures([])).toBe('[]');
  });

  it('writes one line per problem with the row values, messages in the language asked for, and reads back', () => {
    const columns = ['routeKey', 'description'];
    const csv =
      encodeFailuresHeader(columns) +
      encodeFailedRow(
        {
          row: 7,
          values: { routeKey: '=HYPERLINK("x")', description: 'a, b' },
          errors: [
            { path: 'routeKey', message: message('tooLong', { field: 'routeKey', max: 100 }) },
            { path: 'company', message: message('required', { field: 'company' }) },
          ],
        },
        columns,
        'pt-PT',
      );
    expect(parse(csv)).toEqual([
      ['row', 'column', 'message', 'routeKey', 'description'],
      ['7', 'routeKey', expect.stringContaining('routeKey'), `'=HYPERLINK("x")`, 'a, b'],
      ['7', 'company', 'company é obrigatório', `'=HYPERLINK("x")`, 'a, b'],
    ]);
  });
});
