// Demo data of the exchange rates documents service: three documents with their rate lines. Lookups by company
// use ACME-PT (EUR) and ACME-US (USD) from routes.mjs. Factors with more digits than a double holds are strings.
import { findPath } from './apply.mjs';
export const referenceData = {};

const PATH = '/businessCore/exchangeRatesDocuments';

export const records = [
  {
    path: PATH,
    findPath: findPath(PATH, 'number eq 1'),
    body: {
      number: 1,
      validFrom: '2026-01-01T00:00:00Z',
      exchangeRateType: 'Market',
      isExternallyManaged: true,
      externalId: 'ECB-2026-01-01',
      externalVersion: '1',
      exchangeRateDocumentRates: [
        { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.0825 },
        { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: 0.8571 },
        { fromCurrency: 'EUR', toCurrency: 'CHF', conversionFactor: 0.9402 },
        { fromCurrency: 'EUR', toCurrency: 'JPY', conversionFactor: 162.123456789012 },
        { fromCurrency: 'EUR', toCurrency: 'BRL', conversionFactor: 6.3125 },
      ],
    },
  },
  {
    path: PATH,
    findPath: findPath(PATH, 'number eq 2'),
    body: {
      number: 2,
      validFrom: '2026-06-01T00:00:00Z',
      exchangeRateType: 'Market',
      isExternallyManaged: true,
      externalId: 'ECB-2026-06-01',
      externalVersion: '1',
      exchangeRateDocumentRates: [
        { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.1412 },
        { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: 0.8598 },
        { fromCurrency: 'EUR', toCurrency: 'CHF', conversionFactor: '0.935000000000' },
        { fromCurrency: 'EUR', toCurrency: 'JPY', conversionFactor: '169.870000000001' },
      ],
    },
  },
  {
    path: PATH,
    findPath: findPath(PATH, 'number eq 3'),
    body: {
      number: 3,
      validFrom: '2026-06-01T00:00:00Z',
      exchangeRateType: 'Organization',
      isExternallyManaged: false,
      custom_approvedBy: 'Treasury',
      exchangeRateDocumentRates: [{ fromCurrency: 'USD', toCurrency: 'BRL', conversionFactor: 5.52 }],
    },
  },
];
