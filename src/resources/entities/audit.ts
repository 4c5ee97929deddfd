/**
 * The fields every entity record has besides its own, in answer order: one definition for the table's columns,
 * the OData allow-list, the resource answered and its OpenAPI schema.
 */
import type { FieldSpecs } from './spec';

export const AUDIT_FIELDS = {
  isActive: { kind: 'bool', column: 'is_active', required: true, description: 'Whether the record is active' },
  createdOn: { kind: 'datetime', column: 'created_on', required: true, description: 'When the record was created' },
  createdBy: { kind: 'string', column: 'created_by', required: true, description: 'Who created the record (token subject)' },
  modifiedOn: { kind: 'datetime', column: 'modified_on', required: true, description: 'When the record last changed' },
  modifiedBy: { kind: 'string', column: 'modified_by', required: true, description: 'Who changed the record last (token subject)' },
  version: { kind: 'int', column: 'version', required: true, description: '+1 on every change; also the ETag' },
} as const satisfies FieldSpecs;

export type AuditFieldName = keyof typeof AUDIT_FIELDS;
