import { describe, expect, it } from 'vitest';
import { parseEnumValue } from '../../src/validation/enums';
import { decideTransition, describeState, ImportDataState, isStaleProcessing, STALE_AFTER_MS } from '../../src/services/imports/states';
import type { ImportState } from '../../src/services/imports/states';

const STATES: ImportState[] = [1, 2, 3, 4, 5];
const APPLY: Record<ImportState, ImportState[]> = { 1: [2, 4, 5], 2: [2, 3, 4, 5], 3: [], 4: [], 5: [] };

describe('decideTransition', () => {
  const cases = STATES.flatMap((from) => STATES.map((to) => [from, to] as const));
  it.each(cases)('%s -> %s', (from, to) => {
    const expected = APPLY[from].includes(to) ? 'apply' : from === to && from >= 3 ? 'noop' : 'refuse';
    expect(decideTransition(from, to)).toBe(expected);
  });
});

describe('state names', () => {
  it('reads numbers and case-insensitive names, and describes states', () => {
    expect(parseEnumValue(ImportDataState, 'fatal')).toBe(5);
    expect(parseEnumValue(ImportDataState, 'PROCESSING')).toBe(2);
    expect(parseEnumValue(ImportDataState, 3)).toBe(3);
    expect(parseEnumValue(ImportDataState, 6)).toBeUndefined();
    expect(parseEnumValue(ImportDataState, 'Done')).toBeUndefined();
    expect(describeState(4)).toBe('Failed (4)');
  });
});

describe('isStaleProcessing (injected clock)', () => {
  const last = '2026-03-01T10:00:00.000Z';
  const at = (offsetMs: number) => new Date(Date.parse(last) + offsetMs);
  const row = (state: number, lastProgressUpdateOn: string | null = last) => ({
    importDataState: state,
    lastProgressUpdateOn,
    modifiedOn: '2026-03-01T09:00:00.000Z',
  });

  it.each([
    ['just before 30 minutes', 2, STALE_AFTER_MS - 1, false],
    ['at 30 minutes', 2, STALE_AFTER_MS, true],
    ['long after', 2, 24 * 3600 * 1000, true],
    ['a clock behind the last progress', 2, -60_000, false],
    ['Pending, however old', 1, 24 * 3600 * 1000, false],
    ['Succeeded, however old', 3, 24 * 3600 * 1000, false],
  ] as const)('%s', (_name, state, offset, expected) => {
    expect(isStaleProcessing(row(state), at(offset))).toBe(expected);
  });

  it('falls back to modifiedOn when there was never any progress', () => {
    expect(isStaleProcessing(row(2, null), new Date('2026-03-01T09:29:59.999Z'))).toBe(false);
    expect(isStaleProcessing(row(2, null), new Date('2026-03-01T09:30:00.000Z'))).toBe(true);
  });
});
