/** Custom attributes: `custom_<name>` values, checked against definitions when there are any. */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import * as v from 'valibot';
import { scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { MessageKey } from '../../messages/catalogue';
import { customAttributesKind } from '../reference/kinds';
import { applyGroupToReferences } from '../reference/group-records';
import type { ReferenceRecord } from '../reference/spec';
import { refCustomAttributes, requireTenantReferenceStore } from '../reference/tables';
import type { GroupOverlay } from '../../tenant/atomic-group';
import { normalizeDateTime } from '../../validation/values';

export const CUSTOM_PREFIX = 'custom_';
const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export type CustomValues = Record<string, unknown>;

/** A `customAttributes` object of a body, `custom_<name>` (or `<name>`) -> value, as documents show it (any JSON object). */
export const CUSTOM_ATTRIBUTES_OBJECT = v.record(v.string(), v.unknown());

const TYPES = customAttributesKind.fields.type.choices;

export interface CustomAttributeDefinition {
  readonly name: string;
  readonly type: (typeof TYPES)[number];
  readonly required: boolean;
}

/** The stored definitions of an entity as read (`rows`, what a create's batch compares with) and as validated. */
export interface CustomDefinitionSet {
  readonly rows: readonly { readonly name: string; readonly type: string; readonly required: boolean }[];
  readonly definitions: readonly CustomAttributeDefinition[];
}

/** The stored definitions of an entity, as an atomic group's reference writes leave them (src/resources/reference/group-records.ts). */
function applyGroupToDefinitions(overlay: GroupOverlay, entity: string, stored: readonly ReferenceRecord[]) {
  const records = applyGroupToReferences(
    overlay,
    requireTenantReferenceStore(customAttributesKind.name),
    stored,
    (record) => record.entity === entity,
  );
  return records
    .filter((record) => record.entity === entity)
    .map((record) => ({ name: String(record.name), type: String(record.type), required: record.required === true }));
}

/**
 * The tenant/org's custom attribute definitions of an entity (`customAttributes` reference records), as read; with an
 * atomic group's `overlay`, as the group's reference writes leave them.
 */
export async function loadCustomDefinitionRows(
  db: Database,
  scope: TenantScope,
  entity: string,
  overlay?: GroupOverlay,
): Promise<CustomDefinitionSet> {
  const t = refCustomAttributes;
  const stored = await db
    .select({ id: t.id, key: t.key, entity: t.entity, name: t.name, type: t.type, required: t.required })
    .from(t)
    .where(and(scopeCondition(t, scope), eq(t.entity, entity)));
  const rows = overlay
    ? applyGroupToDefinitions(overlay, entity, stored)
    : stored.map(({ name, type, required }) => ({ name, type, required }));
  const definitions = rows.flatMap((row) => {
    // Stored types are validated against the same choices on upsert.
    const type = TYPES.find((choice) => choice === row.type);
    return type ? [{ name: row.name, type, required: row.required }] : [];
  });
  return { rows, definitions };
}

/** The tenant/org's custom attribute definitions of an entity (in an atomic group, as its writes leave them). */
export async function loadCustomDefinitions(
  db: Database,
  scope: TenantScope,
  entity: string,
  overlay?: GroupOverlay,
): Promise<CustomAttributeDefinition[]> {
  return [...(await loadCustomDefinitionRows(db, scope, entity, overlay)).definitions];
}

/**
 * The new JSON of a `custom_attributes` column with `values` set in it, computed by SQL from the stored JSON in the
 * same statement (json_set), so a concurrent change of another attribute is never overwritten. Names are valid
 * custom attribute names (letters, digits, _), hence plain JSON paths.
 */
export function buildCustomValueUpdate(column: SQLiteColumn, values: CustomValues): SQL {
  const pairs = Object.entries(values).map(([name, value]) => sql`${`$.${name}`}, json(${JSON.stringify(value)})`);
  if (pairs.length === 0) return sql`${column}`;
  return sql`json_set(coalesce(nullif(${column}, ''), '{}'), ${sql.join(pairs, sql`, `)})`;
}

/**
 * What `buildCustomValueUpdate` computes, in JavaScript: the stored JSON (`stored`; null, empty or not an object: `{}`)
 * with `values` set in it, names kept in their order and new ones after them, as `json_set` writes it.
 */
export function mergeCustomValues(stored: string | null, values: CustomValues): string {
  let base: unknown = {};
  try {
    base = stored === null || stored === '' ? {} : (JSON.parse(stored) as unknown);
  } catch {
    base = {};
  }
  const object = base !== null && typeof base === 'object' && !Array.isArray(base) ? base : {};
  return JSON.stringify({ ...object, ...values });
}

/** `custom_<name>` with the prefix in any case (a path segment) -> `<name>`; undefined when it is not one. */
export function parsePrefixedCustomName(raw: string): string | undefined {
  return isCustomProperty(raw) ? parseCustomName(raw) : undefined;
}

/** The property of a create body that holds custom attribute values by name. */
export const CUSTOM_ATTRIBUTES_PROPERTY = 'customAttributes';

/** True for a `custom_<name>` property (the prefix in any case). */
export function isCustomProperty(raw: string): boolean {
  return raw.slice(0, CUSTOM_PREFIX.length).toLowerCase() === CUSTOM_PREFIX;
}

/** Strips the `custom_` prefix (in any case), if there is one; undefined when the name is not a valid custom attribute name. */
export function parseCustomName(raw: string): string | undefined {
  const name = isCustomProperty(raw) ? raw.slice(CUSTOM_PREFIX.length) : raw;
  return NAME_PATTERN.test(name) ? name : undefined;
}

/** The value checked against its definition's type (booleans also as 1/0), or the catalogue message of the problem. */
function checkType(definition: CustomAttributeDefinition, value: unknown): { value?: unknown; problem?: MessageKey } {
  if (value === null) return definition.required ? { problem: 'required' } : { value: null };
  switch (definition.type) {
    case 'string':
      return typeof value === 'string' ? { value } : { problem: 'mustBeString' };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { problem: 'mustBeNumber' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : value === 1 || value === 0 ? { value: value === 1 } : { problem: 'mustBeBoolean' };
    case 'date': {
      const normalized = typeof value === 'string' ? normalizeDateTime(value) : undefined;
      return normalized ? { value: normalized } : { problem: 'mustBeDateTime' };
    }
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? { value } : { problem: 'mustBeObject' };
  }
}

/**
 * Validates custom attribute values. With no definitions any valid name is accepted; with definitions,
 * unknown names are refused, types are checked and (on create) required ones must be present.
 */
export function validateCustomValues(
  input: CustomValues,
  definitions: readonly CustomAttributeDefinition[],
  mode: 'create' | 'update',
): { values: CustomValues; errors: FieldError[] } {
  const values: CustomValues = {};
  const errors: FieldError[] = [];
  const byName = new Map(definitions.map((definition) => [definition.name.toLowerCase(), definition]));
  for (const [name, value] of Object.entries(input)) {
    const path = `${CUSTOM_PREFIX}${name}`;
    if (definitions.length === 0) {
      values[name] = value;
      continue;
    }
    const definition = byName.get(name.toLowerCase());
    if (!definition) {
      const names = definitions.map((defined) => CUSTOM_PREFIX + defined.name).join(', ');
      errors.push({ path, message: message('unknownCustomAttribute', { field: path, names }) });
      continue;
    }
    const checked = checkType(definition, value);
    if (checked.problem) errors.push({ path, message: message(checked.problem, { field: path }) });
    else values[definition.name] = checked.value;
  }
  if (mode === 'create') {
    for (const definition of definitions) {
      const reported = errors.some((error) => error.path.toLowerCase() === `${CUSTOM_PREFIX}${definition.name}`.toLowerCase());
      if (definition.required && !reported && (values[definition.name] === undefined || values[definition.name] === null)) {
        const path = `${CUSTOM_PREFIX}${definition.name}`;
        errors.push({ path, message: message('required', { field: path }) });
      }
    }
  }
  return { values, errors };
}
