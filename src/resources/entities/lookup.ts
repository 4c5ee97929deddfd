/** Path segments -> record lookups. */
import { ApiError, validationError } from '../../errors/api-error';
import { isGuid, parseInteger } from '../../validation/values';
import type { EntitySpec } from './spec';
import type { RecordLookup } from './store';
import { message } from '../../messages/catalogue';

/** `/{id}` or `/{key}` of the same shape, per the entity's segment rule. */
export function parseSegmentLookup(spec: EntitySpec, segment: string): RecordLookup {
  const [keyName = 'key'] = spec.key;
  if (spec.segmentLookup === 'intKeyOrId') {
    if (parseInteger(segment, 'minus') !== undefined) return { by: 'key', values: [parseKeyValue(spec, keyName, segment)] };
    if (isGuid(segment)) return { by: 'id', id: segment.toLowerCase() };
    throw validationError([{ path: keyName, message: message('keyNotIntegerOrGuid', { field: keyName, value: segment }) }]);
  }
  if (isGuid(segment)) return { by: 'idOrKey', id: segment.toLowerCase(), key: segment };
  return { by: 'key', values: [segment] };
}

/** An integer path segment (`/{number}`); 400 naming `name` otherwise. */
export function parseIntegerSegment(name: string, raw: string): number {
  const value = parseInteger(raw, 'minus');
  if (value === undefined || !Number.isSafeInteger(value)) {
    throw validationError([{ path: name, message: message('keyMustBeInteger', { field: name, value: raw }) }]);
  }
  return value;
}

/** One key value from a path segment: integers for `int` key fields, else the text (not empty). */
function parseKeyValue(spec: EntitySpec, name: string, raw: string): unknown {
  if (spec.fields[name]?.kind === 'int') return parseIntegerSegment(name, raw);
  if (raw === '') throw validationError([{ path: name, message: message('mustNotBeEmpty', { field: name }) }]);
  return raw;
}

/** Key path parameters (`/{companyKey}/{routeKey}/...`) -> a key lookup. */
export function parseKeyLookup(spec: EntitySpec, segments: readonly string[]): RecordLookup {
  if (segments.length !== spec.key.length) throw new ApiError('NotFound', 'Unknown path.');
  return { by: 'key', values: spec.key.map((name, index) => parseKeyValue(spec, name, segments[index] ?? '')) };
}

/** `If-Match: "3"` -> 3; `*` or absent -> undefined. A value that is not one of our ETags can never match. */
export function parseIfMatch(request: Request): number | undefined {
  const header = request.headers.get('if-match');
  if (header === null || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(header);
  if (!match?.[1]) return -1;
  return Number(match[1]);
}
