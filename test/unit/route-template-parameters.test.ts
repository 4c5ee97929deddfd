import { describe, expect, it } from 'vitest';
import { buildTemplateParameters } from '../../src/services/routes/template-parameters';
import type { NotificationInput } from '../../src/services/routes/template-parameters';
import { parseToolKeys } from '../../src/services/routes/tools';

const member = (key: string, description: string) => ({ id: `00000000-0000-4000-8000-00000000000${key.length}`, key, description });

const input: NotificationInput = {
  routeKey: 'R1',
  description: 'Round',
  company: 'C1',
  companyName: 'Company One',
  responsible: null,
  responsibleName: null,
  locations: Array.from({ length: 1234 }, (_, index) => member(`L${index}`, '')),
  equipmentItems: [member('Q1', 'Boiler'), member('Q2', 'Chiller'), member('Q3', 'Pump')],
  tools: [],
};

const today = new Date('2026-03-05T23:30:00Z');

describe('buildTemplateParameters', () => {
  const cases: [string, Record<string, string>][] = [
    [
      'en-US',
      { date: '03/05/2026', longDate: 'March 5, 2026', locationCount: '1,234', equipmentItems: 'Q1 (Boiler), Q2 (Chiller), and Q3 (Pump)' },
    ],
    [
      'pt-PT',
      {
        date: '05/03/2026',
        longDate: '5 de março de 2026',
        locationCount: '1234',
        equipmentItems: 'Q1 (Boiler), Q2 (Chiller) e Q3 (Pump)',
      },
    ],
    [
      'es-ES',
      {
        date: '05/03/2026',
        longDate: '5 de marzo de 2026',
        locationCount: '1234',
        equipmentItems: 'Q1 (Boiler), Q2 (Chiller) y Q3 (Pump)',
      },
    ],
    [
      'de-DE',
      { date: '05.03.2026', longDate: '5. März 2026', locationCount: '1.234', equipmentItems: 'Q1 (Boiler), Q2 (Chiller) und Q3 (Pump)' },
    ],
    [
      'en-GB',
      { date: '05/03/2026', longDate: '5 March 2026', locationCount: '1,234', equipmentItems: 'Q1 (Boiler), Q2 (Chiller) and Q3 (Pump)' },
    ],
  ];
  it.each(cases)('formats values for %s', (culture, expected) => {
    const values = Object.fromEntries(buildTemplateParameters(input, culture, today).map((parameter) => [parameter.name, parameter.value]));
    expect(values).toMatchObject({ ...expected, equipmentItemCount: '3', toolCount: '0', tools: '', responsibleName: null });
  });

  it('lists members without a description by key alone', () => {
    const values = buildTemplateParameters({ ...input, locations: [member('L1', '')] }, 'en-US', today);
    expect(values.find((parameter) => parameter.name === 'locations')?.value).toBe('L1');
  });
});

describe('parseToolKeys', () => {
  const cases: [string, unknown, string[], string[]][] = [
    ['absent', undefined, [], []],
    ['null', null, [], []],
    ['comma-separated with spaces and duplicates', ' T1, T2 ,,T1 ', ['T1', 'T2'], []],
    ['an array', ['T2', 'T1', 'T2'], ['T2', 'T1'], []],
    ['bad array items', ['T1', 3, ' '], ['T1'], ['tools[1]', 'tools[2]']],
    ['a number', 5, [], ['tools']],
    ['an object', { a: 1 }, [], ['tools']],
  ];
  it.each(cases)('%s', (_name, raw, keys, paths) => {
    const parsed = parseToolKeys(raw);
    expect(parsed.keys).toEqual(keys);
    expect(parsed.errors.map((error) => error.path)).toEqual(paths);
  });

  it('refuses keys over 100 characters and more than 1000 tools', () => {
    expect(parseToolKeys(['x'.repeat(101)]).errors.map((error) => error.path)).toEqual(['tools[0]']);
    expect(parseToolKeys(Array.from({ length: 1001 }, (_, i) => `T${i}`)).errors.map((error) => error.path)).toEqual(['tools']);
  });
});
