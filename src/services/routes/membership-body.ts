/** The body of a membership operation: `["L1","L2"]` or `{"value": [...], "customAttributes": {...}}`. */
import * as v from 'valibot';
import { CUSTOM_ATTRIBUTES_OBJECT, CUSTOM_ATTRIBUTES_PROPERTY, parsePrefixedCustomName } from '../../resources/entities/custom-attributes';
import type { CustomValues } from '../../resources/entities/custom-attributes';
import type { FieldError } from '../../errors/api-error';
import { validationError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';
import { bindPropertyNames } from '../../validation/property-names';
import { isGuid, isPlainObject } from '../../validation/values';

const MAX_MEMBERS_PER_REQUEST = 1000;

export type MembershipBy = 'key' | 'id';

interface MembershipBody {
  /** Distinct keys, or lowercase ids, in the order sent. */
  readonly values: string[];
  /** Position of each distinct value in the request (for errors). */
  readonly paths: ReadonlyMap<string, string>;
  readonly custom: CustomValues;
}

const KEY_MAX = 100;

/** The values' schemas (for the OpenAPI document; `checkItem` applies the same rules, naming each value's path). */
const ITEM_SCHEMAS = {
  key: v.pipe(v.string(), v.minLength(1), v.maxLength(KEY_MAX)),
  id: v.pipe(v.string(), v.uuid()),
} as const;

/** The body's schema, from the same item schemas and limit the validation below uses (for the OpenAPI document). */
export function buildMembershipBodySchema(by: MembershipBy) {
  const list = v.pipe(v.array(ITEM_SCHEMAS[by]), v.maxLength(MAX_MEMBERS_PER_REQUEST));
  return v.union([list, v.strictObject({ value: list, customAttributes: v.optional(v.nullable(CUSTOM_ATTRIBUTES_OBJECT)) })]);
}

function parseCustom(raw: unknown, errors: FieldError[]): CustomValues {
  const custom: CustomValues = {};
  if (raw === undefined || raw === null) return custom;
  if (!isPlainObject(raw)) {
    errors.push({ path: CUSTOM_ATTRIBUTES_PROPERTY, message: message('mustBeObject', { field: CUSTOM_ATTRIBUTES_PROPERTY }) });
    return custom;
  }
  for (const [rawName, value] of Object.entries(raw)) {
    const name = parsePrefixedCustomName(rawName);
    const path = `${CUSTOM_ATTRIBUTES_PROPERTY}.${rawName}`;
    if (name) custom[name] = value;
    else errors.push({ path, message: message('customAttributeName', { field: path }) });
  }
  return custom;
}

/** The problem with one value (`path` is its place in the request), if any; the rules of ITEM_SCHEMAS. */
function checkItem(by: MembershipBy, item: unknown, path: string): Message | undefined {
  if (by === 'id') return typeof item === 'string' && isGuid(item) ? undefined : message('mustBeGuid', { field: path });
  if (typeof item !== 'string') return message('mustBeString', { field: path });
  if (item === '') return message('mustNotBeEmpty', { field: path });
  return item.length > KEY_MAX ? message('tooLong', { field: path, max: KEY_MAX }) : undefined;
}

/** Validates the body; every bad item is named (`value[2]`). Property names bind case-insensitively. */
export function parseMembershipBody(body: unknown, by: MembershipBy): MembershipBody {
  const errors: FieldError[] = [];
  let list: unknown = body;
  let custom: CustomValues = {};
  if (isPlainObject(body)) {
    const bound = bindPropertyNames(body, ['value', CUSTOM_ATTRIBUTES_PROPERTY]);
    errors.push(...bound.errors);
    list = bound.values.value;
    for (const name of Object.keys(bound.values)) {
      if (name !== 'value' && name !== CUSTOM_ATTRIBUTES_PROPERTY)
        errors.push({ path: name, message: message('unknownProperty', { field: name }) });
    }
    custom = parseCustom(bound.values[CUSTOM_ATTRIBUTES_PROPERTY], errors);
  }
  if (!Array.isArray(list)) {
    errors.push({ path: 'value', message: message(by === 'key' ? 'keyList' : 'idList', { field: 'value' }) });
    throw validationError(errors);
  }
  if (list.length > MAX_MEMBERS_PER_REQUEST) {
    errors.push({ path: 'value', message: message('tooManyItems', { field: 'value', max: MAX_MEMBERS_PER_REQUEST }) });
  }
  const values: string[] = [];
  const paths = new Map<string, string>();
  list.forEach((item: unknown, index) => {
    const path = `value[${index}]`;
    const problem = checkItem(by, item, path);
    if (problem || typeof item !== 'string') {
      errors.push({ path, message: problem ?? message('notValid', { field: path }) });
      return;
    }
    const value = by === 'id' ? item.toLowerCase() : item;
    if (!paths.has(value)) {
      paths.set(value, path);
      values.push(value);
    }
  });
  if (errors.length > 0) throw validationError(errors);
  return { values, paths, custom };
}
