/** Turns stored rows into API resources: fields, `custom_*` values, `isActive` and audit fields. */
import { CUSTOM_PREFIX } from './custom-attributes';
import type { Row } from './repository';
import type { EntitySpec } from './spec';

export type Resource = Record<string, unknown>;

export function parseCustomColumn(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string' || raw === '') return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toResource(spec: EntitySpec, row: Row): Resource {
  const resource: Resource = { id: row.id };
  for (const name of Object.keys(spec.fields)) resource[name] = row[name] ?? null;
  if (spec.customAttributes) {
    for (const [name, value] of Object.entries(parseCustomColumn(row.customAttributes))) resource[`${CUSTOM_PREFIX}${name}`] = value;
  }
  resource.isActive = row.isActive;
  resource.createdOn = row.createdOn;
  resource.createdBy = row.createdBy;
  resource.modifiedOn = row.modifiedOn;
  resource.modifiedBy = row.modifiedBy;
  resource.version = row.version;
  return resource;
}

/** A `$select`ed row: only the selected fields, in the order asked. */
export function toPartialResource(row: Row, names: readonly string[]): Resource {
  const resource: Resource = {};
  for (const name of names) resource[name] = row[name] ?? null;
  return resource;
}
