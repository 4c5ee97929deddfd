/** Canonical spellings of culture (BCP 47) and currency (ISO 4217) keys. */
import { describe, expect, it } from 'vitest';
import { canonicalizeReferenceKey } from '../../src/resources/reference/kinds';
import { canonicalizeCultureKey, canonicalizeCurrencyKey } from '../../src/resources/reference/standard-keys';

describe('canonicalizeCultureKey', () => {
  const cases: [string, string][] = [
    ['pt-PT', 'pt-PT'],
    ['PT-pt', 'pt-PT'],
    ['pt-pt', 'pt-PT'],
    ['EN-us', 'en-US'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['ZH-HANT-TW', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['DE', 'de'],
    ['sl-ROZAJ-biske', 'sl-rozaj-biske'],
    ['en-US-X-TWAIN', 'en-US-x-twain'],
    ['de-DE-u-CO-phonebk', 'de-DE-u-co-phonebk'],
    ['', ''],
  ];
  it.each(cases)('%s -> %s', (input, expected) => {
    expect(canonicalizeCultureKey(input)).toBe(expected);
  });
});

describe('canonicalizeCurrencyKey and canonicalizeReferenceKey', () => {
  it('upper-cases currencies, canonicalizes cultures and leaves other kinds exact', () => {
    expect(canonicalizeCurrencyKey('eur')).toBe('EUR');
    expect(canonicalizeReferenceKey('currencies', 'Usd')).toBe('USD');
    expect(canonicalizeReferenceKey('cultures', 'PT-pt')).toBe('pt-PT');
    expect(canonicalizeReferenceKey('companies', 'acme-pt')).toBe('acme-pt');
    expect(canonicalizeReferenceKey('unknownKind', 'Mixed')).toBe('Mixed');
  });
});
