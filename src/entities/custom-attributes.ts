/** Custom attributes: `custom_<name>` values, checked against definitions when there are any. */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import * as v from 'valibot';
import { scopeCondition } from '../db/client';
import type { Database, TenantScope } from '../db/client';
import type { FieldError } from '../errors/api-error';
import { customAttributesKind } from '../reference/kinds';
import { refCustomAttributes } from '../reference/tables';
import { DATE_TIME_RULE, normalizeDateTime } from '../validation/values';

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

/** The tenant/org's custom attribute definitions of an entity (`customAttributes` reference records), as read. */
export async function loadCustomDefinitionRows(db: Database, scope: TenantScope, entity: string): Promise<CustomDefinitionSet> {
  const t = refCustomAttributes;
  const rows = await db
    .select({ name: t.name, type: t.type, required: t.required })
    .from(t)
    .where(and(scopeCondition(t, scope), eq(t.entity, entity)));
  const definitions = rows.flatMap((row) => {
    // Stored types are validated against the same choices on upsert.
    const type = TYPES.find((choice) => choice === row.type);
    return type ? [{ name: row.name, type, required: row.required }] : [];
  });
  return { rows, definitions };
}

/** The tenant/org's custom attribute definitions of an entity. */
export async function loadCustomDefinitions(db: Database, scope: TenantScope, entity: string): Promise<CustomAttributeDefinition[]> {
  return [...(await loadCustomDefinitionRows(db, scope, entity)).definitions];
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

/** Strips the `custom_` prefix; undefined when the name is not a valid custom attribute name. */
export function parseCustomName(raw: string): string | undefined {
  const name = raw.startsWith(CUSTOM_PREFIX) ? raw.slice(CUSTOM_PREFIX.length) : raw;
  return NAME_PATTERN.test(name) ? name : undefined;
}

function checkType(definition: CustomAttributeDefinition, value: unknown): { value?: unknown; message?: string } {
  if (value === null) return definition.required ? { message: 'is required and cannot be null' } : { value: null };
  switch (definition.type) {
    case 'string':
      return typeof value === 'string' ? { value } : { message: 'must be a string' };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { message: 'must be a number' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { message: 'must be true or false' };
    case 'date': {
      const normalized = typeof value === 'string' ? normalizeDateTime(value) : undefined;
      return normalized ? { value: normalized } : { message: `must be an ${DATE_TIME_RULE}` };
    }
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? { value } : { message: 'must be a JSON object' };
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
      errors.push({ path, message: `Unknown custom attribute; defined: ${definitions.map((d) => CUSTOM_PREFIX + d.name).join(', ')}` });
      continue;
    }
    const checked = checkType(definition, value);
    if (checked.message) errors.push({ path, message: `${path} ${checked.message}` });
    else values[definition.name] = checked.value;
  }
  if (mode === 'create') {
    for (const definition of definitions) {
      const reported = errors.some((error) => error.path.toLowerCase() === `${CUSTOM_PREFIX}${definition.name}`.toLowerCase());
      if (definition.required && !reported && (values[definition.name] === undefined || values[definition.name] === null)) {
        errors.push({ path: `${CUSTOM_PREFIX}${definition.name}`, message: `${CUSTOM_PREFIX}${definition.name} is required` });
      }
    }
  }
  return { values, errors };
}
