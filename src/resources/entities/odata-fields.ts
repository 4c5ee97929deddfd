/** The OData allow-list of an entity (`id`, its declared scalar fields and the audit fields) and the orders its indexes serve. */
import type { ODataField, SortOrders } from '../../odata/types';
import { findReferenceKind } from '../reference/kinds';
import { AUDIT_FIELDS } from './audit';
import { listIndexFields } from '../../model/table';
import type { EntitySpec, FieldSpec } from './spec';

const cache = new WeakMap<EntitySpec, ODataField[]>();

/** The entity's trigram text index (an FTS5 table over its `textSearch` fields). */
export function textIndexOf(spec: EntitySpec): string {
  return `${spec.table}_text`;
}

function toODataField(name: string, field: FieldSpec, textIndex?: string): ODataField {
  // Keys of a kind that compares case-insensitively (cultures, currencies): literals compared with them are canonicalized.
  const canonicalKey = field.reference === undefined ? undefined : findReferenceKind(field.reference)?.canonicalKey;
  return {
    name,
    kind: field.kind,
    column: field.column,
    ...(field.enum ? { enumMembers: field.enum.members } : {}),
    ...(canonicalKey ? { canonicalKey } : {}),
    ...(field.textSearch && textIndex ? { textIndex } : {}),
    ...(field.required ? {} : { nullable: true }),
  };
}

export function listODataFields(spec: EntitySpec): ODataField[] {
  let fields = cache.get(spec);
  if (!fields) {
    fields = [
      { name: 'id', kind: 'guid', column: 'id' },
      ...Object.entries(spec.fields)
        .filter(([, field]) => !field.notQueryable)
        .map(([name, field]) => toODataField(name, field, textIndexOf(spec))),
      ...Object.entries(AUDIT_FIELDS).map(([name, field]) => toODataField(name, field)),
    ];
    cache.set(spec, fields);
  }
  return fields;
}

const orderCache = new WeakMap<EntitySpec, SortOrders>();

/** A column an index orders as `ORDER BY` does (a decimal is ordered as a number, its text column is not). */
function isIndexOrdered(spec: EntitySpec, name: string): boolean {
  if (name === 'id' || Object.hasOwn(AUDIT_FIELDS, name)) return true;
  const field = Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
  return field !== undefined && !field.notQueryable && field.kind !== 'decimal';
}

/**
 * The orders an index serves: the natural key (unique, then the tie-breakers), creation order and every declared index
 * (null-able columns included: an index holds NULL first, as `ORDER BY` does ascending). An `$orderby` whose keys are
 * an order's own columns, in order, optionally followed by its tie-breakers, all one direction, is read from that index;
 * any other is sorted (docs/odata.md, "Sorting").
 */
export function listSortOrders(spec: EntitySpec): SortOrders {
  let orders = orderCache.get(spec);
  if (!orders) {
    const declared = [spec.key, ['createdOn'], ...(spec.indexes ?? [])];
    orders = declared
      .filter((fields) => fields.every((name) => isIndexOrdered(spec, name)))
      .map((fields) => ({ fields: listIndexFields(fields), required: fields.length }));
    orderCache.set(spec, orders);
  }
  return orders;
}
