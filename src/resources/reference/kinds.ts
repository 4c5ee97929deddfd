import { matchLiteralSegment } from '../../http/segments';
import { defineReferenceKind } from './spec';
import type { ReferenceFieldSpecs, ReferenceKindSpec } from './spec';
import { canonicalizeCultureKey, canonicalizeCurrencyKey } from './standard-keys';
import { message } from '../../messages/catalogue';

export const culturesKind = defineReferenceKind({
  storage: 'standard',
  name: 'cultures',
  title: 'Culture',
  key: ['key'],
  table: 'ref_cultures',
  canonicalKey: canonicalizeCultureKey,
  fields: { name: { kind: 'string', column: 'name', required: true } },
});

export const currenciesKind = defineReferenceKind({
  storage: 'standard',
  name: 'currencies',
  title: 'Currency',
  key: ['key'],
  table: 'ref_currencies',
  canonicalKey: canonicalizeCurrencyKey,
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    symbol: { kind: 'string', column: 'symbol', required: true },
    decimalPlaces: { kind: 'int', column: 'decimal_places', required: true },
  },
});

export const customAttributesKind = defineReferenceKind({
  storage: 'reference',
  name: 'customAttributes',
  title: 'Custom attribute definition',
  key: ['key'],
  table: 'ref_custom_attributes',
  keyDescription: '<entity>.<name>',
  check: (record) =>
    record.key === `${String(record.entity)}.${String(record.name)}`
      ? undefined
      : { path: 'key', message: message('customAttributeKey', { expected: `${String(record.entity)}.${String(record.name)}` }) },
  fields: {
    entity: { kind: 'choice', column: 'entity', required: true, choices: ['emailTemplates', 'routes', 'exchangeRatesDocuments'] },
    name: { kind: 'string', column: 'name', required: true, maxLength: 64 },
    type: { kind: 'choice', column: 'type', required: true, choices: ['string', 'number', 'boolean', 'date', 'object'] },
    required: { kind: 'bool', column: 'required', defaulted: true },
  },
});

/** A kind whose records have a required description, plus `extra` fields. */
function defineDescribedKind<const K extends string, const T extends string, const E extends ReferenceFieldSpecs>(
  kind: K,
  title: string,
  table: T,
  extra: E,
) {
  const resource = {
    storage: 'reference',
    name: kind,
    title,
    key: ['key'],
    table,
    fields: { description: { kind: 'string', column: 'description', required: true }, ...extra },
  } as const;
  return resource satisfies ReferenceKindSpec;
}

export const companiesKind = defineReferenceKind({
  storage: 'reference',
  name: 'companies',
  title: 'Company',
  key: ['key'],
  table: 'ref_companies',
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    baseCurrency: { kind: 'string', column: 'base_currency', required: true, reference: 'currencies' },
  },
});

export const employeesKind = defineReferenceKind({
  storage: 'reference',
  name: 'employees',
  title: 'Employee',
  key: ['key'],
  table: 'ref_employees',
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    company: { kind: 'string', column: 'company', reference: 'companies' },
  },
});

export const locationsKind = defineDescribedKind('locations', 'Location', 'ref_locations', {
  company: { kind: 'string', column: 'company', required: true, reference: 'companies' },
});
export const equipmentItemsKind = defineDescribedKind('equipmentItems', 'Equipment item', 'ref_equipment_items', {
  company: { kind: 'string', column: 'company', required: true, reference: 'companies' },
});
export const toolsKind = defineDescribedKind('tools', 'Tool', 'ref_tools', {});
export const locationFunctionsKind = defineDescribedKind('locationFunctions', 'Location function', 'ref_location_functions', {});
export const familiesKind = defineDescribedKind('families', 'Family', 'ref_families', {});
export const brandsKind = defineDescribedKind('brands', 'Brand', 'ref_brands', {});
export const brandModelsKind = defineDescribedKind('brandModels', 'Brand model', 'ref_brand_models', {
  brand: { kind: 'string', column: 'brand', required: true, reference: 'brands' },
});

export const kpiDefinitionsKind = defineReferenceKind({
  storage: 'reference',
  name: 'kpiDefinitions',
  title: 'KPI definition',
  key: ['key'],
  table: 'ref_kpi_definitions',
  keyDescription: 'KPI code',
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    valueType: { kind: 'choice', column: 'value_type', required: true, choices: ['Number', 'Percentage', 'Currency', 'Duration'] },
    valueFractionDigits: { kind: 'int', column: 'value_fraction_digits', required: true },
    aggregation: { kind: 'choice', column: 'aggregation', required: true, choices: ['sum', 'avg', 'min', 'max', 'last', 'count'] },
    higherIsBetter: { kind: 'bool', column: 'higher_is_better', defaulted: true },
  },
});

export const workerConfigurationsKind = defineReferenceKind({
  storage: 'reference',
  name: 'workerConfigurations',
  title: 'Worker configuration',
  key: ['key'],
  table: 'ref_worker_configurations',
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

const REFERENCE_KIND_NAMES = REFERENCE_KINDS.map((spec) => spec.name);

/** The kind named `kind`, in any case (it is a path segment: `/referenceData/Companies`). */
export function findReferenceKind(kind: string): ReferenceKindSpec | undefined {
  const name = matchLiteralSegment(REFERENCE_KIND_NAMES, kind);
  return REFERENCE_KINDS.find((spec) => spec.name === name);
}

/** A key of `kind` in its canonical spelling (unchanged for kinds whose keys are exact). */
export function canonicalizeReferenceKey(kind: string, key: string): string {
  const canonical = findReferenceKind(kind)?.canonicalKey;
  return canonical ? canonical(key) : key;
}
