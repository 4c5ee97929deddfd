/** The OData allow-list of an entity: its declared scalar fields, `id`, `isActive` and the audit fields. */
import type { ODataField } from '../odata/types';
import { findReferenceKind } from '../reference/kinds';
import type { EntitySpec } from './spec';

const cache = new WeakMap<EntitySpec, ODataField[]>();

function readCanonicalKey(reference: string | undefined): Pick<ODataField, 'canonicalKey'> {
  const canonicalKey = reference === undefined ? undefined : findReferenceKind(reference)?.canonicalKey;
  return canonicalKey ? { canonicalKey } : {};
}

export function listODataFields(spec: EntitySpec): ODataField[] {
  let fields = cache.get(spec);
  if (!fields) {
    fields = [
      { name: 'id', kind: 'guid', column: 'id' },
      ...Object.entries(spec.fields)
        .filter(([, field]) => !field.notQueryable)
        .map(([name, field]) => ({
          name,
          kind: field.kind,
          column: field.column,
          ...(field.enum ? { enumMembers: field.enum.members } : {}),
          ...readCanonicalKey(field.reference),
        })),
      { name: 'isActive', kind: 'bool', column: 'is_active' },
      { name: 'createdOn', kind: 'datetime', column: 'created_on' },
      { name: 'createdBy', kind: 'string', column: 'created_by' },
      { name: 'modifiedOn', kind: 'datetime', column: 'modified_on' },
      { name: 'modifiedBy', kind: 'string', column: 'modified_by' },
      { name: 'version', kind: 'int', column: 'version' },
    ];
    cache.set(spec, fields);
  }
  return fields;
}
