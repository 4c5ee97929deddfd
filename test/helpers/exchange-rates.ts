/** Shared pieces of the exchange rates documents tests. */
import { expect } from 'vitest';
import type { TenantClient } from './api';

export const BASE = '/businessCore/exchangeRatesDocuments';
export const LOOKUP = `${BASE}/getCurrencyExchangeRates`;
export const BY_COMPANY = `${BASE}/getCurrencyExchangeRatesByCompany`;

export interface LineResource {
  id: string;
  conversionFactor: number;
  fromCurrency: string;
  toCurrency: string;
  fromExchangeRateId: string | null;
  toExchangeRateId: string | null;
  [name: string]: unknown;
}

/** An ExchangeCurrencyRate answer. */
export interface Answer {
  currencyFromKey: string;
  currencyToKey: string;
  exchangeRate: number;
  exchangeRateDate: string;
}

/** Rate lines as [from, to, conversionFactor]. */
export type Lines = [string, string, string | number][];

/** Creates a Market document with the given lines (201 expected); answers its id. */
export async function createDocument(
  as: TenantClient,
  number: number,
  validFrom: string,
  lines: Lines,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const result = await as.call<string>('POST', BASE, {
    body: {
      number,
      validFrom,
      exchangeRateType: 1,
      isExternallyManaged: false,
      exchangeRateDocumentRates: lines.map(([fromCurrency, toCurrency, conversionFactor]) => ({
        fromCurrency,
        toCurrency,
        conversionFactor,
      })),
      ...extra,
    },
  });
  expect(result.status, result.text).toBe(201);
  return result.body;
}
