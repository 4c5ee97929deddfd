/** The body of a membership operation (CONTRACT 4): `["L1","L2"]` or `{"value": [...], "customAttributes": {...}}`. */
import * as v from 'valibot';
import { CUSTOM_ATTRIBUTES_OBJECT, CUSTOM_PREFIX, parseCustomName } from '../../entities/custom-attributes';
import type { CustomValues } from '../../entities/custom-attributes';
import type { FieldError } from '../../errors/api-error';
import { validationError } from '../../errors/api-error';
import { isPlainObject } from '../../validation/values';

export const MAX_MEMBERS_PER_REQUEST = 1000;

export type MembershipBy = 'key' | 'id';

export interface MembershipBody {
  /** Distinct keys, or lowercase ids, in the order sent. */
  readonly values: string[];
  /** Position of each distinct value in the request (for errors). */
  readonly paths: ReadonlyMap<string, string>;
  readonly custom: CustomValues;
}

const ITEM_SCHEMAS = {
  key: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters')),
  id: v.pipe(v.string('must be a GUID'), v.uuid('must be a GUID')),
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
    errors.push({ path: 'customAttributes', message: 'customAttributes must be a JSON object.' });
    return custom;
  }
  for (const [rawName, value] of Object.entries(raw)) {
    const name = rawName.startsWith(CUSTOM_PREFIX) ? parseCustomName(rawName) : undefined;
    if (name) custom[name] = value;
    else
      errors.push({
        path: `customAttributes.${rawName}`,
        message: `Custom attribute names are ${CUSTOM_PREFIX}<name> (letters, digits and _).`,
      });
  }
  return custom;
}

/** Validates the body; every bad item is named (`value[2]`). */
export function parseMembershipBody(body: unknown, by: MembershipBy): MembershipBody {
  const errors: FieldError[] = [];
  let list: unknown = body;
  let custom: CustomValues = {};
  if (isPlainObject(body)) {
    list = body.value;
    for (const name of Object.keys(body)) {
      if (name !== 'value' && name !== 'customAttributes') errors.push({ path: name, message: `Unknown property '${name}'.` });
    }
    custom = parseCustom(body.customAttributes, errors);
  }
  if (!Array.isArray(list)) {
    errors.push({ path: 'value', message: `value must be an array of ${by === 'key' ? 'keys' : 'ids'}.` });
    throw validationError(errors);
  }
  if (list.length > MAX_MEMBERS_PER_REQUEST)
    errors.push({ path: 'value', message: `At most ${MAX_MEMBERS_PER_REQUEST} values per request (got ${list.length}).` });
  const values: string[] = [];
  const paths = new Map<string, string>();
  list.forEach((item: unknown, index) => {
    const path = `value[${index}]`;
    const result = v.safeParse(ITEM_SCHEMAS[by], item);
    if (!result.success) {
      errors.push(...result.issues.map((issue) => ({ path, message: `${path} ${issue.message}` })));
      return;
    }
    const value = by === 'id' ? result.output.toLowerCase() : result.output;
    if (!paths.has(value)) {
      paths.set(value, path);
      values.push(value);
    }
  });
  if (errors.length > 0) throw validationError(errors);
  return { values, paths, custom };
}
