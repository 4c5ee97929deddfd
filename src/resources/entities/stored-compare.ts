/**
 * What a PATCH or PUT body says about properties it cannot change: OData clients send back the whole entity they read,
 * so a read-only property (`id`, the stamps, `version`) or a related list (route members, rate lines) equal to the
 * stored one is accepted and ignored; a different value is refused, naming the property. Pure.
 */
import * as v from 'valibot';
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import { isPlainObject } from '../../validation/values';
import { buildFieldSchema } from './field-schema';
import type { FieldSpec } from './spec';

/** A value as its field reads it (a date-time normalized, a GUID in lower case), or the value itself when it is not one. */
function readAs(name: string, field: FieldSpec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const result = v.safeParse(buildFieldSchema(name, field), value);
  return result.success ? result.output : value;
}

/** Read-only properties given that differ from the stored resource's. */
export function compareReadOnly(
  given: Readonly<Record<string, unknown>>,
  fields: readonly [string, FieldSpec][],
  stored: Readonly<Record<string, unknown>>,
): FieldError[] {
  return fields.flatMap(([name, field]) => {
    if (!(name in given)) return [];
    if (readAs(name, field, given[name]) === readAs(name, field, stored[name])) return [];
    return [{ path: name, message: message('readOnlyProperty', { field: name, stored: JSON.stringify(stored[name] ?? null) }) }];
  });
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b) && String(a).trim() !== '' && String(b).trim() !== '';
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether a list given is the stored list: the same number of items, each naming a distinct stored item (a string: its
 * key; an object: by its `id`, else its `key`) whose every property it gives is the stored one.
 */
function isStoredList(given: unknown, stored: unknown): boolean {
  if (given === null || given === undefined) return Array.isArray(stored) && stored.length === 0;
  if (!Array.isArray(given) || !Array.isArray(stored) || given.length !== stored.length) return false;
  const items = stored.filter(isPlainObject);
  const byId = new Map(items.map((item) => [String(item.id).toLowerCase(), item]));
  const byKey = new Map(items.map((item) => [String(item.key), item]));
  const matched = new Set<unknown>();
  for (const item of given) {
    const found =
      typeof item === 'string'
        ? byKey.get(item)
        : isPlainObject(item)
          ? typeof item.id === 'string'
            ? byId.get(item.id.toLowerCase())
            : byKey.get(String(item.key))
          : undefined;
    if (!found || matched.has(found)) return false;
    if (isPlainObject(item) && !Object.entries(item).every(([name, value]) => name === 'id' || sameJson(value, found[name]))) return false;
    matched.add(found);
  }
  return true;
}

/** Related lists given that are not the stored ones. */
export function compareRelated(given: Readonly<Record<string, unknown>>, stored: Readonly<Record<string, unknown>>): FieldError[] {
  return Object.entries(given).flatMap(([name, value]) => {
    // As the answer writes it (exact decimals are raw JSON numbers there).
    const answered: unknown = stored[name] === undefined ? undefined : JSON.parse(JSON.stringify(stored[name]));
    return isStoredList(value, answered) ? [] : [{ path: name, message: message('relatedNotUpdatable', { field: name }) }];
  });
}
