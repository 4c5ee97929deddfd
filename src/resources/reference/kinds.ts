import { matchLiteralSegment } from '../../http/segments';
import { defineReferenceKind } from './spec';
import type { ReferenceFieldSpecs, ReferenceKindSpec } from './spec';
import { canonicalizeCultureKey, canonicalizeCurrencyKey } from './standard-keys';
import { message } from '../../messages/catalogue';

export const culturesKind = defineReferenceKind({
  kind: 'cultures',
  table: 'ref_cultures',
  standard: true,
  canonicalKey: canonicalizeCultureKey,
  fields: { name: { kind: 'string', column: 'name', required: true } },
});

export const currenciesKind = defineReferenceKind({
  kind: 'currencies',
  table: 'ref_currencies',
  standard: true,
  canonicalKey: canonicalizeCurrencyKey,
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    symbol: { kind: 'string', column: 'symbol', required: true },
    decimalPlaces: { kind: 'int', column: 'decimal_places', required: true },
  },
});

export const customAttributesKind = defineReferenceKind({
  kind: 'customAttributes',
  table: 'ref_custom_attributes',
  standard: false,
  keyDescription: '<entity>.<name>',
  check: (record) =>
    record.key === `${String(record.entity)}.${String(record.name)}`
      ? undefined
      : { path: 'key', message: message('customAttributeKey', { expected: `${String(record.entity)}.${String(record.name)}` }) },
  fields: {
    entity: { kind: 'choice', column: 'entity', required: true, choices: ['emailTemplates', 'routes', 'exchangeRatesDocuments'] },
    name: { kind: 'string', column: 'name', required: true, maxLength: 64 },
    type: { kind: 'choice', column: 'type', required: true, choices: ['string', 'number', 'boolean', 'date', 'object'] },
    required: { kind: 'bool', column: 'required' },
  },
});

/** A kind whose records have a required description, plus `extra` fields. */
function defineDescribedKind<const K extends string, const T extends string, const E extends ReferenceFieldSpecs>(
  kind: K,
  table: T,
  extra: E,
) {
  return defineReferenceKind({
    kind,
    table,
    standard: false,
    fields: { description: { kind: 'string', column: 'description', required: true }, ...extra },
  });
}

export const companiesKind = defineReferenceKind({
  kind: 'companies',
  table: 'ref_companies',
  standard: false,
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    baseCurrency: { kind: 'string', column: 'base_currency', required: true, reference: 'currencies' },
  },
});

export const employeesKind = defineReferenceKind({
  kind: 'employees',
  table: 'ref_employees',
  standard: false,
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    company: { kind: 'string', column: 'company', reference: 'companies' },
  },
});

export const locationsKind = defineDescribedKind('locations', 'ref_locations', {
  company: { kind: 'string', column: 'company', required: true, reference: 'companies' },
});
export const equipmentItemsKind = defineDescribedKind('equipmentItems', 'ref_equipment_items', {
  company: { kind: 'string', column: 'company', required: true, reference: 'companies' },
});
export const toolsKind = defineDescribedKind('tools', 'ref_tools', {});
export const locationFunctionsKind = defineDescribedKind('locationFunctions', 'ref_location_functions', {});
export const familiesKind = defineDescribedKind('families', 'ref_families', {});
export const brandsKind = defineDescribedKind('brands', 'ref_brands', {});
export const brandModelsKind = defineDescribedKind('brandModels', 'ref_brand_models', {
  brand: { kind: 'string', column: 'brand', required: true, reference: 'brands' },
});

export const kpiDefinitionsKind = defineReferenceKind({
  kind: 'kpiDefinitions',
  table: 'ref_kpi_definitions',
  standard: false,
  keyDescription: 'KPI code',
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    valueType: { kind: 'choice', column: 'value_type', required: true, choices: ['Number', 'Percentage', 'Currency', 'Duration'] },
    valueFractionDigits: { kind: 'int', column: 'value_fraction_digits', required: true },
    aggregation: { kind: 'choice', column: 'aggregation', required: true, choices: ['sum', 'avg', 'min', 'max', 'last', 'count'] },
    higherIsBetter: { kind: 'bool', column: 'higher_is_better' },
  },
});

export const workerConfigurationsKind = defineReferenceKind({
  kind: 'workerConfigurations',
  table: 'ref_worker_configurations',
  standard: false,
  fields: {
    companies: { kind: 'stringList', column: 'companies', reference: 'companies' },
    codes: { kind: 'stringList', column: 'codes', reference: 'kpiDefinitions' },
  },
});

/** Every reference kind, in dependency order (a kind only references kinds before it). */
export const REFERENCE_KINDS: readonly ReferenceKindSpec[] = [
  culturesKind,
  currenciesKind,
  companiesKind,
  employeesKind,
  locationsKind,
  equipmentItemsKind,
  toolsKind,
  locationFunctionsKind,
  familiesKind,
  brandsKind,
  brandModelsKind,
  kpiDefinitionsKind,
  workerConfigurationsKind,
  customAttributesKind,
];

const REFERENCE_KIND_NAMES = REFERENCE_KINDS.map((spec) => spec.kind);

/** The kind named `kind`, in any case (it is a path segment: `/referenceData/Companies`). */
export function findReferenceKind(kind: string): ReferenceKindSpec | undefined {
  const name = matchLiteralSegment(REFERENCE_KIND_NAMES, kind);
  return REFERENCE_KINDS.find((spec) => spec.kind === name);
}

/** A key of `kind` in its canonical spelling (unchanged for kinds whose keys are exact). */
export function canonicalizeReferenceKey(kind: string, key: string): string {
  const canonical = findReferenceKind(kind)?.canonicalKey;
  return canonical ? canonical(key) : key;
}
