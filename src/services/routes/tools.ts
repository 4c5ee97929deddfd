/** A route's `tools` on create: a comma-separated string of tool keys or an array of keys. */
import * as v from 'valibot';
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import { isPlainObject } from '../../validation/values';

const MAX_TOOLS = 1000;
const MAX_KEY_LENGTH = 100;

/** What `parseToolKeys` accepts, as the OpenAPI document shows it. */
export const TOOLS_SCHEMA = v.optional(
  v.nullable(
    v.union([
      v.pipe(v.string(), v.description('Comma-separated tool keys')),
      v.pipe(
        v.array(
          v.union([
            v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_KEY_LENGTH)),
            v.looseObject({ key: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_KEY_LENGTH)) }),
          ]),
        ),
        v.maxLength(MAX_TOOLS),
        v.description('Tool keys, or {key} objects as reads answer them'),
      ),
    ]),
  ),
);

interface ToolKeys {
  /** Distinct keys, in the order given. */
  readonly keys: string[];
  /** Where each key was given (`tools[1]`, or `tools` for the string form). */
  readonly paths: ReadonlyMap<string, string>;
  readonly errors: FieldError[];
}

/** `"T1, T2"`, `["T1","T2"]` (or `[{"key": "T1"}, ...]`), `null` or absent -> distinct keys; every bad item is named. */
export function parseToolKeys(raw: unknown): ToolKeys {
  if (raw === undefined || raw === null) return { keys: [], paths: new Map(), errors: [] };
  let items: unknown[];
  if (typeof raw === 'string')
    items = raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  // Items as reads answer them ({id, key, description}) stand for their key.
  else if (Array.isArray(raw)) items = raw.map((item: unknown) => (isPlainObject(item) && typeof item.key === 'string' ? item.key : item));
  else
    return {
      keys: [],
      paths: new Map(),
      errors: [{ path: 'tools', message: message('toolList', { field: 'tools' }) }],
    };
  const errors: FieldError[] = [];
  if (items.length > MAX_TOOLS) errors.push({ path: 'tools', message: message('tooManyItems', { field: 'tools', max: MAX_TOOLS }) });
  const keys: string[] = [];
  const paths = new Map<string, string>();
  items.forEach((item, index) => {
    const path = Array.isArray(raw) ? `tools[${index}]` : 'tools';
    if (typeof item !== 'string' || item.trim() === '') errors.push({ path, message: message('mustNotBeEmpty', { field: path }) });
    else if (item.trim().length > MAX_KEY_LENGTH) errors.push({ path, message: message('tooLong', { field: path, max: MAX_KEY_LENGTH }) });
    else if (!paths.has(item.trim())) {
      keys.push(item.trim());
      paths.set(item.trim(), path);
    }
  });
  return { keys, paths, errors };
}
