/**
 * Upsert by natural key: a row whose key is stored updates the attributes that differ, as the attribute PUTs would
 * (each `updatable` field, `isActive`, custom attributes merged into the stored ones). A differing value of a field
 * without its own PUT fails the row. The stored values of what changes are kept in the chunk's ledger row, so a
 * revert gives them back.
 */
import type { FieldError } from '../../errors/api-error';
import type { EntityStore } from '../../resources/entities/store';
import { message } from '../../messages/catalogue';
import type { MemberChange } from './member-stage';

/** A stored record as drizzle reads it (fields decoded by their columns). */
export type StoredRecord = Readonly<Record<string, unknown>> & { readonly id: string; readonly version: number };

/**
 * An update of a stored record at the version it was read at: what it sets (may be nothing), those fields' stored
 * values, and the members it adds (routes: keys the record does not hold yet).
 */
export interface PlannedUpdate {
  readonly id: string;
  readonly expectedVersion: number;
  readonly set: Readonly<Record<string, unknown>>;
  readonly before: Readonly<Record<string, unknown>>;
  readonly members: readonly MemberChange[];
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function parseCustom(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string' || text === '') return {};
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : {};
}

/** The custom attributes after the row's values are merged in, when that changes them. */
function diffCustom(stored: StoredRecord, custom: Readonly<Record<string, unknown>>): string | undefined {
  if (Object.keys(custom).length === 0) return undefined;
  const current = parseCustom(stored.customAttributes);
  const merged = { ...current, ...custom };
  return sameValue(current, merged) ? undefined : JSON.stringify(merged);
}

/**
 * What a row changes on its stored record: an update (undefined: nothing differs), or the errors of fields that differ
 * but cannot be changed.
 */
export function diffStored(
  store: EntityStore,
  stored: StoredRecord,
  values: Readonly<Record<string, unknown>>,
  custom: Readonly<Record<string, unknown>>,
): { readonly update: PlannedUpdate | undefined } | { readonly errors: readonly FieldError[] } {
  const set: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (store.spec.key.includes(name) || sameValue(stored[name], value)) continue;
    if (name !== 'isActive' && store.spec.fields[name]?.updatable !== true) {
      errors.push({ path: name, message: message('importNotUpdatable', { field: name, value: JSON.stringify(stored[name] ?? null) }) });
      continue;
    }
    set[name] = value;
    before[name] = stored[name] ?? null;
  }
  const customAttributes = diffCustom(stored, custom);
  if (customAttributes !== undefined) {
    set.customAttributes = customAttributes;
    before.customAttributes = stored.customAttributes ?? null;
  }
  if (errors.length > 0) return { errors };
  if (Object.keys(set).length === 0) return { update: undefined };
  return { update: { id: stored.id, expectedVersion: stored.version, set, before, members: [] } };
}
