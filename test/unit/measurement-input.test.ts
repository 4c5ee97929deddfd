/**
 * The fast check of canonical measurements against the schema it shortcuts: on generated bodies (canonical items,
 * edge values and every kind of bad input) both answer the same measurements, or the same 400 with the same errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { parseMeasurements, parseMeasurementsBySchema } from '../../src/services/indicators/measurement-input';

/** What a parse answers: the measurements, or the problem's code, detail and field errors. */
function outcomeOf(parse: (body: unknown) => unknown, body: unknown): unknown {
  try {
    return { ok: parse(body) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, status: error.status, detail: error.message, errors: error.errors };
  }
}

const EDGE_VALUES: unknown[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  1e-6,
  -1e-6,
  1e-7,
  123.456789,
  123.4567891,
  999999999999,
  999999999999.999,
  1e12,
  -1e12,
  1e21,
  1e-10,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '0',
  '-0',
  '+0',
  '-0.0',
  '00',
  '007',
  '007.5',
  '1.',
  '.5',
  '-.5',
  '1.50',
  '1.500000',
  '1.5000000',
  '1.1234567',
  '1.123456',
  '999999999999.999999',
  '1000000000000',
  '-999999999999',
  '1e3',
  '1E-2',
  '2.5e-7',
  ' 12',
  '12 ',
  '+12.5',
  '--1',
  '1,5',
  '',
  'abc',
  null,
  true,
  [],
  {},
  '９',
  '1_000',
];

const EDGE_DATES: unknown[] = [
  '2026-01-01T00:00:00.000Z',
  '1900-01-01T00:00:00.000Z',
  '1899-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.999Z',
  '2026-02-29T00:00:00.000Z',
  '2024-02-29T12:00:00.000Z',
  '2026-02-30T00:00:00.000Z',
  '2026-04-31T00:00:00.000Z',
  '2026-13-01T00:00:00.000Z',
  '2026-01-01T24:00:00.000Z',
  '2026-01-01T23:60:00.000Z',
  '2026-01-01T23:59:60.000Z',
  '2026-01-01',
  '2026-01-01T10:00',
  '2026-01-01T10:00:00Z',
  '2026-01-01T10:00:00.5Z',
  '2026-01-01T10:00:00.000+02:00',
  '2026-01-01T10:00:00.000',
  ' 2026-01-01T00:00:00.000Z',
  '2026-01-01T00:00:00.000Z ',
  '0000-01-01T00:00:00.000Z',
  '2026-1-01T00:00:00.000Z',
  '',
  'yesterday',
  20260101,
  null,
  '２０２６-01-01T00:00:00.000Z',
];

const key = fc.oneof(
  fc.constantFrom('ACME', 'MTBF', 'x', 'a'.repeat(100), 'a'.repeat(101), '', ' ', 'é'.repeat(100), '😀'.repeat(50), '😀'.repeat(51)),
  fc.string({ maxLength: 102 }),
  fc.constantFrom(1, null, true, ['ACME'], { k: 1 }),
);
const canonicalDate = fc
  .date({ min: new Date(Date.UTC(1850, 0, 1)), max: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)), noInvalidDate: true })
  .map((date) => date.toISOString());
const date = fc.oneof({ weight: 4, arbitrary: canonicalDate }, { weight: 2, arbitrary: fc.constantFrom(...EDGE_DATES) }, fc.string());
const decimalText = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 13n }), fc.nat({ max: 8 }), fc.bigInt({ min: 0n, max: 10n ** 8n }))
  .map(
    ([negative, whole, places, fraction]) =>
      `${negative ? '-' : ''}${whole}${places > 0 ? `.${String(fraction).padStart(places, '0').slice(0, places)}` : ''}`,
  );
const value = fc.oneof(
  { weight: 3, arbitrary: fc.double({ min: -2e12, max: 2e12 }).map((n) => Math.round(n * 100) / 100) },
  { weight: 2, arbitrary: fc.double() },
  { weight: 3, arbitrary: decimalText },
  { weight: 2, arbitrary: fc.constantFrom(...EDGE_VALUES) },
  fc.integer(),
  fc.string({ maxLength: 20 }),
);
const canonicalItem = fc.record({ company: key, code: key, date, value });
const item = fc.oneof(
  { weight: 8, arbitrary: canonicalItem },
  // Missing, extra and odd properties; items that are not objects.
  canonicalItem.chain((base) =>
    fc.subarray(Object.keys(base)).map((kept) => Object.fromEntries(Object.entries(base).filter(([name]) => kept.includes(name)))),
  ),
  canonicalItem.map((base) => ({ ...base, extra: 1 })),
  canonicalItem.map((base) => JSON.parse(JSON.stringify({ ...base, ['__proto__']: 1 })) as unknown),
  fc.constantFrom(null, 1, 'x', [], [1]),
);

describe('the fast check of canonical measurements', () => {
  it('answers what the schema answers, on generated bodies', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (body) => {
        expect(outcomeOf(parseMeasurements, body)).toEqual(outcomeOf(parseMeasurementsBySchema, body));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers what the schema answers for every edge value and date, one item at a time', () => {
    for (const edge of EDGE_VALUES)
      for (const when of ['2026-03-01T10:00:00.000Z', ...EDGE_DATES]) {
        const body = [{ company: 'ACME', code: 'MTBF', date: when, value: edge }];
        expect(outcomeOf(parseMeasurements, body), `${String(when)} ${String(edge)}`).toEqual(outcomeOf(parseMeasurementsBySchema, body));
      }
  });

  it('keeps the body rules: an array of at most 5000', () => {
    for (const body of [{}, 'x', null, Array.from({ length: 5001 }, () => ({}))])
      expect(outcomeOf(parseMeasurements, body)).toEqual(outcomeOf(parseMeasurementsBySchema, body));
    const full = Array.from({ length: 5000 }, (_, n) => ({ company: 'C', code: 'K', date: '2026-01-01T00:00:00.000Z', value: n / 100 }));
    expect(parseMeasurements(full)).toEqual(parseMeasurementsBySchema(full));
  });

  it('stores values as exact millionths', () => {
    const body = [
      { company: 'C', code: 'K', date: '2026-01-01T00:00:00.000Z', value: '-0.000001' },
      { company: 'C', code: 'K', date: '2026-01-01T00:00:00.000Z', value: 999999999999.5 },
      { company: 'C', code: 'K', date: '2026-01-01T00:00:00.000Z', value: '12.30' },
    ];
    expect(parseMeasurements(body).map((m) => m.valueMicros)).toEqual(['-1', '999999999999500000', '12300000']);
  });
});
