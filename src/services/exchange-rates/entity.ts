/** Exchange rates documents: the document entity and the rate line description. */
import { defineResource } from '../../model/resource';

const ExchangeRateType = { name: 'ExchangeRateType', members: { Market: 1, Organization: 2, User: 3 } } as const;

export const EXCHANGE_RATES_BASE = '/businessCore/exchangeRatesDocuments';

export const exchangeRatesDocumentSpec = defineResource({
  storage: 'entity',
  name: 'exchangeRatesDocuments',
  title: 'Exchange rates document',
  resourceName: 'ExchangeRatesDocument',
  basePath: EXCHANGE_RATES_BASE,
  table: 'exchange_rates_documents',
  key: ['number'],
  segmentLookup: 'intKeyOrId',
  customAttributes: true,
  fields: {
    number: { kind: 'int', column: 'number', required: true, updatable: true, description: 'Document number' },
    validFrom: { kind: 'datetime', column: 'valid_from', required: true, updatable: true, description: 'Start of the validity period' },
    exchangeRateType: {
      kind: 'enum',
      column: 'exchange_rate_type',
      required: true,
      updatable: true,
      enum: ExchangeRateType,
      description: 'Type of the document: 1 Market, 2 Organization, 3 User',
    },
    isExternallyManaged: {
      kind: 'bool',
      column: 'is_externally_managed',
      required: true,
      updatable: true,
      description: 'Whether the document is managed externally',
    },
    externalId: { kind: 'string', column: 'external_id', textSearch: true, updatable: true, maxLength: 255, description: 'External id' },
    externalVersion: {
      kind: 'string',
      column: 'external_version',
      textSearch: true,
      updatable: true,
      maxLength: 255,
      description: 'External version',
    },
  },
  indexes: [
    ['validFrom', 'number'],
    ['exchangeRateType'],
    ['modifiedOn'],
    ['validFrom'],
    ['isExternallyManaged'],
    ['externalId'],
    ['externalVersion'],
    ['isActive'],
    ['createdBy'],
    ['modifiedBy'],
    ['version'],
  ],
});

/**
 * A rate line (ApiExchangeRatesDocumentExchangeRateDocumentRatesResource): a line of its document, keyed by its
 * currency pair within it; every line change bumps the document.
 */
export const rateLineSpec = defineResource({
  storage: 'line',
  name: 'exchangeRateDocumentRates',
  title: 'Exchange rate line',
  resourceName: 'ExchangeRateDocumentRate',
  table: 'exchange_rate_lines',
  parent: { resource: 'exchangeRatesDocuments', column: 'document_id', order: 'line_no', property: 'exchangeRateDocumentRates' },
  indexes: { from: ['fromCurrency', 'toCurrency'], to: ['toCurrency'] },
  differ: { currencies_differ: ['fromCurrency', 'toCurrency'] },
  key: ['fromCurrency', 'toCurrency'],
  customAttributes: true,
  fields: {
    conversionFactor: {
      kind: 'decimal',
      column: 'conversion_factor',
      required: true,
      updatable: true,
      description: 'Price of one unit of fromCurrency expressed in toCurrency (> 0, exact decimal)',
    },
    toCurrency: {
      kind: 'string',
      column: 'to_currency',
      required: true,
      updatable: true,
      maxLength: 64,
      reference: 'currencies',
      description: 'Target currency',
    },
    fromCurrency: {
      kind: 'string',
      column: 'from_currency',
      required: true,
      updatable: true,
      maxLength: 64,
      reference: 'currencies',
      description: 'Source currency',
    },
    fromExchangeRateId: {
      kind: 'guid',
      column: 'from_exchange_rate_id',
      updatable: true,
      description: 'Identifier of the source exchange rate',
    },
    toExchangeRateId: {
      kind: 'guid',
      column: 'to_exchange_rate_id',
      updatable: true,
      description: 'Identifier of the target exchange rate',
    },
  },
});

/** Attributes of a line with their own PUT operation. */
export const LINE_ATTRIBUTES: readonly string[] = Object.keys(rateLineSpec.fields);
