import { describe, expect, it } from 'vitest';
import { canonicalizeDecimal, crossRate, invertRate } from '../../src/services/exchange-rates/decimal';
import { buildTimeline, pickRate, resolveInDocument } from '../../src/services/exchange-rates/rates';
import type { CandidateLine } from '../../src/services/exchange-rates/rates';

function line(parentId: string, validFrom: string, number: number, pair: string, factor: string): CandidateLine {
  const [fromCurrency, toCurrency] = pair.split('>') as [string, string];
  return { parentId, validFrom: `${validFrom}T00:00:00.000Z`, number, fromCurrency, toCurrency, factor };
}

describe('canonicalizeDecimal', () => {
  it.each([
    ['1.0825', '1.0825'],
    ['162.123456789012', '162.123456789012'],
    ['11.500000000000', '11.500000000000'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['007.10', '7.10'],
    ['+2', '2'],
    ['-0.5', '-0.5'],
    ['1e-7', '0.0000001'],
    ['1.5E3', '1500'],
    ['0.12345678901234567890123', '0.12345678901234567890123'],
  ])('%s -> %s', (input, expected) => {
    expect(canonicalizeDecimal(input)).toBe(expected);
  });

  it.each(['', 'abc', '1.2.3', '1e', '--1', '1e99999', '0x10', '1'.repeat(65)])('refuses %j', (input) => {
    expect(canonicalizeDecimal(input)).toBeUndefined();
  });
});

describe('inverse and cross rates', () => {
  it('inverts with 20 significant digits, exactly when the inverse terminates', () => {
    expect(invertRate('1.08')).toBe('0.92592592592592592593');
    expect(invertRate('0.5')).toBe('2');
    expect(invertRate('0.000000000001')).toBe('1000000000000');
  });

  it('multiplies legs without binary rounding', () => {
    expect(crossRate({ factor: '0.1', inverse: false }, { factor: '0.2', inverse: false })).toBe('0.02');
    expect(crossRate({ factor: '1.25', inverse: true }, { factor: '0.8', inverse: true })).toBe('1');
    expect(crossRate({ factor: '1.08', inverse: true }, { factor: '0.86', inverse: false })).toBe('0.7962962962962962963');
  });
});

describe('resolveInDocument', () => {
  const factors = new Map([
    ['EUR>USD', '1.08'],
    ['EUR>GBP', '0.86'],
    ['CHF>USD', '1.12'],
    ['CHF>GBP', '0.9'],
  ]);
  it.each([
    ['direct', 'EUR', 'USD', { rate: '1.08', method: 'direct' }],
    ['inverse', 'USD', 'EUR', { rate: '0.92592592592592592593', method: 'inverse' }],
    [
      'cross through the alphabetically first shared currency (CHF before EUR)',
      'USD',
      'GBP',
      { rate: '0.80357142857142857143', method: 'cross', via: 'CHF' },
    ],
    ['cross with an inverse first leg', 'GBP', 'USD', { rate: '1.2444444444444444444', method: 'cross', via: 'CHF' }],
    ['no line and no shared currency', 'EUR', 'JPY', undefined],
  ])('%s', (_name, from, to, expected) => {
    expect(resolveInDocument(factors, from, to)).toEqual(expected);
  });
});

describe('timeline and pickRate', () => {
  const lines: CandidateLine[] = [
    line('jan', '2026-01-01', 1, 'EUR>USD', '1.10'),
    line('feb', '2026-02-01', 2, 'USD>EUR', '0.8'),
    line('mar-a', '2026-03-01', 3, 'EUR>USD', '1.30'),
    line('mar-b', '2026-03-01', 7, 'EUR>USD', '1.37'),
    line('mar-c', '2026-03-01', 5, 'EUR>USD', '1.35'),
    line('apr', '2026-04-01', 8, 'EUR>GBP', '0.85'),
    line('may', '2026-05-01', 9, 'EUR>GBP', '0.8'),
    line('may', '2026-05-01', 9, 'GBP>USD', '1.5'),
  ];
  const timeline = buildTimeline('EUR', 'USD', lines);

  it('orders documents newest first, ties by the highest number, and leaves out those that cannot answer', () => {
    expect(timeline.map((entry) => entry.number)).toEqual([9, 7, 5, 3, 2, 1]);
  });

  it.each([
    ['before every document', '2025-12-31T23:59:59.999Z', undefined],
    ['on the first validFrom (inclusive)', '2026-01-01T00:00:00.000Z', { number: 1, rate: '1.10', method: 'direct' }],
    ['a later date uses the latest valid document', '2026-01-20T00:00:00.000Z', { number: 1, rate: '1.10', method: 'direct' }],
    ['inverse line', '2026-02-10T00:00:00.000Z', { number: 2, rate: '1.25', method: 'inverse' }],
    ['ties on validFrom: highest number', '2026-03-15T00:00:00.000Z', { number: 7, rate: '1.37', method: 'direct' }],
    ['a document that cannot answer is skipped', '2026-04-15T00:00:00.000Z', { number: 7, rate: '1.37', method: 'direct' }],
    ['cross rate', '2026-06-01T00:00:00.000Z', { number: 9, rate: '1.2', method: 'cross' }],
  ])('%s', (_name, date, expected) => {
    const picked = pickRate(timeline, date);
    if (expected === undefined) expect(picked).toBeUndefined();
    else expect(picked).toMatchObject(expected);
  });

  it('answers the inverse direction from the same documents', () => {
    const back = buildTimeline('USD', 'EUR', lines);
    expect(pickRate(back, '2026-02-10T00:00:00.000Z')).toMatchObject({ number: 2, rate: '0.8', method: 'direct' });
    expect(pickRate(back, '2026-03-15T00:00:00.000Z')).toMatchObject({ number: 7, rate: '0.72992700729927007299', method: 'inverse' });
  });
});
