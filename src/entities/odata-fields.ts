/** The OData allow-list of an entity: `id`, its declared scalar fields and the audit fields. */
import type { ODataField } from '../odata/types';
import { findReferenceKind } from '../reference/kinds';
import { AUDIT_FIELDS } from './audit';
import type { EntitySpec, FieldSpec } from './spec';

const cache = new WeakMap<EntitySpec, ODataField[]>();

function toODataField(name: string, field: FieldSpec): ODataField {
  // Keys of a kind that compares case-insensitively (cultures, currencies): literals compared with them are canonicalized.
  const canonicalKey = field.reference === undefined ? undefined : findReferenceKind(field.reference)?.canonicalKey;
  return {
    name,
    kind: field.kind,
    column: field.column,
    ...(field.enum ? { enumMembers: field.enum.members } : {}),
    ...(canonicalKey ? { canonicalKey } : {}),
  };
}

export function listODataFields(spec: EntitySpec): ODataField[] {
  let fields = cache.get(spec);
  if (!fields) {
    fields = [
      { name: 'id', kind: 'guid', column: 'id' },
      ...Object.entries(spec.fields)
        .filter(([, field]) => !field.notQueryable)
        .map(([name, field]) => toODataField(name, field)),
      ...Object.entries(AUDIT_FIELDS).map(([name, field]) => toODataField(name, field)),
    ];
    cache.set(spec, fields);
  }
  return fields;
}
