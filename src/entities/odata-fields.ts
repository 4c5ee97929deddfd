/** The OData allow-list of an entity: `id`, its declared scalar fields and the audit fields. */
import type { ODataField } from '../odata/types';
import { AUDIT_FIELDS } from './audit';
import type { EntitySpec, FieldSpec } from './spec';

const cache = new WeakMap<EntitySpec, ODataField[]>();

function toODataField(name: string, field: FieldSpec): ODataField {
  return { name, kind: field.kind, column: field.column, ...(field.enum ? { enumMembers: field.enum.members } : {}) };
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
