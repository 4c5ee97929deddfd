/** Import rows: each record mapped to the body of the template's API operation and checked by that operation's validation. */
import { describe, expect, it } from 'vitest';
import type { ImportTemplate } from '../../src/resources/entities/import-template';
import { exchangeRatesService } from '../../src/services/exchange-rates';
import { checkRecord } from '../../src/services/imports/rows';
import { collectImportTemplates } from '../../src/services/imports/templates';
import { indicatorsService } from '../../src/services/indicators';
import { routesImportTemplate } from '../../src/services/routes/import-template';

const templates = collectImportTemplates(
  [routesImportTemplate, ...indicatorsService.importTemplates, ...exchangeRatesService.importTemplates],
  () => ({ users: [], guards: [], reactions: [] }),
);

function template(name: string): ImportTemplate {
  const found = templates.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no template ${name}`);
  return found;
}

const paths = (row: ReturnType<typeof checkRecord>) => row.errors.map((error) => error.path).sort();

describe('routes', () => {
  it('maps text cells to the create body: lists of keys, booleans, custom values, empty cells absent', () => {
    const row = checkRecord(
      template('routes'),
      {
        row: 2,
        values: {
          ROUTEKEY: 'R1',
          description: 'North',
          company: 'C1',
          locations: 'L1| L2 |',
          tools: '',
          custom_colour: 'red',
          custom_weight: '12.5',
          isActive: '0',
          remarks: '',
        },
      },
      true,
    );
    expect(row).toEqual({
      row: 2,
      body: {
        routeKey: 'R1',
        description: 'North',
        company: 'C1',
        locations: ['L1', 'L2'],
        custom_colour: 'red',
        custom_weight: 12.5,
        isActive: false,
      },
      errors: [],
    });
  });

  it('names every field the API would refuse, with the API messages', () => {
    const row = checkRecord(
      template('routes'),
      { row: 3, values: { routeKey: 'x'.repeat(101), description: ' ', company: 'C1', isActive: 'maybe' } },
      true,
    );
    expect(paths(row)).toEqual(['description', 'isActive', 'routeKey']);
    expect(row.errors.find((error) => error.path === 'routeKey')?.message).toEqual({
      key: 'tooLong',
      params: { field: 'routeKey', max: 100 },
    });
  });

  it('takes JSON items as they are and names properties that are not columns', () => {
    const row = checkRecord(
      template('routes'),
      { row: 1, values: { routeKey: 'R1', description: 'd', company: 'C1', locations: ['L1'], colour: 'red' } },
      false,
    );
    expect(row.body).toEqual({ routeKey: 'R1', description: 'd', company: 'C1', locations: ['L1'] });
    expect(row.errors.map((error) => [error.path, error.message.key])).toEqual([['colour', 'importUnknownColumn']]);
    const badMembers = checkRecord(
      template('routes'),
      { row: 2, values: { routeKey: 'R1', description: 'd', company: 'C1', locations: 'L1' } },
      false,
    );
    expect(paths(badMembers)).toEqual(['locations']);
  });
});

describe('other templates', () => {
  it('exchangeRatesDocuments: a row is a document with one line; a line field is named by its column', () => {
    const good = checkRecord(
      template('exchangeRatesDocuments'),
      {
        row: 2,
        values: {
          number: '7',
          validFrom: '2026-01-01',
          exchangeRateType: 'Market',
          isExternallyManaged: 'false',
          fromCurrency: 'EUR',
          toCurrency: 'USD',
          conversionFactor: '1.1',
        },
      },
      true,
    );
    expect(good.errors).toEqual([]);
    const bad = checkRecord(
      template('exchangeRatesDocuments'),
      {
        row: 3,
        values: {
          number: 'x',
          validFrom: '2026-01-01',
          exchangeRateType: 1,
          isExternallyManaged: false,
          fromCurrency: 'EUR',
          toCurrency: 'USD',
          conversionFactor: 'abc',
        },
      },
      false,
    );
    expect(paths(bad)).toEqual(['conversionFactor', 'number']);
  });

  it('kpiMeasurements and reference kinds: checked as their bulk operations check one item', () => {
    expect(
      checkRecord(template('kpiMeasurements'), { row: 2, values: { company: 'C1', code: 'K1', date: '2026-01-01', value: '5.5' } }, true)
        .errors,
    ).toEqual([]);
    expect(
      paths(checkRecord(template('kpiMeasurements'), { row: 2, values: { company: 'C1', code: 'K1', date: 'soon', value: 'x' } }, true)),
    ).toEqual(['date', 'value']);
    expect(checkRecord(template('companies'), { row: 2, values: { key: 'C1', name: 'One', baseCurrency: 'EUR' } }, true).errors).toEqual(
      [],
    );
    expect(paths(checkRecord(template('companies'), { row: 2, values: { key: 'C1', baseCurrency: 'EUR' } }, true))).toEqual(['name']);
    const kpi = checkRecord(
      template('kpiDefinitions'),
      { row: 2, values: { key: 'K1', valueFractionDigits: '2', higherIsBetter: 'TRUE' } },
      true,
    );
    expect(kpi.body).toMatchObject({ valueFractionDigits: 2, higherIsBetter: true });
  });

  it('every writable reference kind has a template; standard lists have none', () => {
    const names = templates.map((candidate) => candidate.name);
    expect(names).toEqual(
      expect.arrayContaining(['routes', 'kpiMeasurements', 'exchangeRatesDocuments', 'companies', 'locations', 'brandModels']),
    );
    expect(names).not.toContain('cultures');
    expect(names).not.toContain('currencies');
  });
});
