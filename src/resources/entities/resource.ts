/** Turns stored rows into API resources: fields, `custom_*` values, `isActive` and audit fields. */
import { isPlainObject } from '../../validation/values';
import { AUDIT_FIELDS } from './audit';
import { CUSTOM_PREFIX } from './custom-attributes';
import type { EntitySpec } from './spec';

export type Resource = Record<string, unknown>;

/** The `custom_attributes` JSON text -> its values by name (anything unreadable counts as none). */
export function parseCustomColumn(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string' || raw === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** `{ id, <fields>, custom_<name>..., <audit fields> }` of a stored row. */
export function toResource(spec: EntitySpec, row: Readonly<Record<string, unknown>>): Resource {
  const resource: Resource = { id: row.id };
  for (const name of Object.keys(spec.fields)) resource[name] = row[name] ?? null;
  if (spec.customAttributes) {
    for (const [name, value] of Object.entries(parseCustomColumn(row.customAttributes))) resource[`${CUSTOM_PREFIX}${name}`] = value;
  }
  for (const name of Object.keys(AUDIT_FIELDS)) resource[name] = row[name];
  return resource;
}

/** A `$select`ed row: only the selected fields, in the order asked. */
export function toPartialResource(row: Readonly<Record<string, unknown>>, names: readonly string[]): Resource {
  const resource: Resource = {};
  for (const name of names) resource[name] = row[name] ?? null;
  return resource;
}
