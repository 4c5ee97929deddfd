import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { message } from '../../src/messages/catalogue';
import { encodeCell, encodeFailedRow, encodeFailuresHeader } from '../../src/services/imports/files/failures-csv';

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
