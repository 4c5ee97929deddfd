import type { ReferenceKindSpec } from './spec';

export const culturesKind: ReferenceKindSpec = {
  kind: 'cultures',
  table: 'ref_cultures',
  standard: true,
  fields: { name: { kind: 'string', column: 'name', required: true } },
};

export const currenciesKind: ReferenceKindSpec = {
  kind: 'currencies',
  table: 'ref_currencies',
  standard: true,
  fields: {
    name: { kind: 'string', column: 'name', required: true },
    symbol: { kind: 'string', column: 'symbol', required: true },
    decimalPlaces: { kind: 'int', column: 'decimal_places', required: true },
  },
};

export const customAttributesKind: ReferenceKindSpec = {
  kind: 'customAttributes',
  table: 'ref_custom_attributes',
  standard: false,
  keyDescription: '<entity>.<name>',
  fields: {
    entity: { kind: 'choice', column: 'entity', required: true, choices: ['emailTemplates', 'routes', 'exchangeRatesDocuments'] },
    name: { kind: 'string', column: 'name', required: true, maxLength: 64 },
    type: { kind: 'choice', column: 'type', required: true, choices: ['string', 'number', 'boolean', 'date', 'object'] },
    required: { kind: 'bool', column: 'required' },
  },
};

/** Every reference kind, in dependency order (a kind only references kinds before it). */
export const REFERENCE_KINDS: readonly ReferenceKindSpec[] = [culturesKind, currenciesKind, customAttributesKind];

export function findReferenceKind(kind: string): ReferenceKindSpec | undefined {
  return REFERENCE_KINDS.find((spec) => spec.kind === kind);
}
