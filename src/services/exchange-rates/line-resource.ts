/** A stored rate line -> ExchangeRateDocumentRateResource (the factor written with the digits that were sent). */
import { CUSTOM_PREFIX } from '../../resources/entities/custom-attributes';
import { parseCustomColumn } from '../../resources/entities/resource';
import type { Resource } from '../../resources/entities/resource';
import { toJsonNumber } from './decimal';
import type { RateLineRow } from './table';

export function toLineResource(line: RateLineRow): Resource {
  const resource: Resource = {
    id: line.id,
    conversionFactor: toJsonNumber(line.conversionFactor),
    fromCurrency: line.fromCurrency,
    toCurrency: line.toCurrency,
    fromExchangeRateId: line.fromExchangeRateId,
    toExchangeRateId: line.toExchangeRateId,
  };
  for (const [name, value] of Object.entries(parseCustomColumn(line.customAttributes))) resource[`${CUSTOM_PREFIX}${name}`] = value;
  return resource;
}
