/** The inputs of the two rate lookups (`getCurrencyExchangeRates`, `getCurrencyExchangeRatesByCompany`), described once for their validation and their docs. */
import type { FieldSpec, InputDescription } from '../../resources/entities/spec';

const currencyField = (description: string): FieldSpec => ({
  kind: 'string',
  column: '',
  required: true,
  maxLength: 64,
  reference: 'currencies',
  description,
});
const referencedDate: FieldSpec = { kind: 'datetime', column: '', description: 'Moment of the rate (default: now)' };

function describeInput(name: string, fields: Record<string, FieldSpec>): InputDescription {
  return { title: name, customAttributes: true, fields };
}

export const pairInput = describeInput('getCurrencyExchangeRates', {
  currencyFromKey: currencyField('Source currency'),
  currencyToKey: currencyField('Target currency'),
  referencedDate,
});
export const companyInput = describeInput('getCurrencyExchangeRatesByCompany', {
  currencyKey: currencyField('Currency converted into the company base currency'),
  companyKey: { kind: 'string', column: '', required: true, maxLength: 100, description: 'Company' },
  referencedDate,
});
