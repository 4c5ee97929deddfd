/** Path segments -> record lookups (CONTRACT 1). */
import { ApiError, validationError } from '../http/errors';
import type { RecordLookup } from './repository';
import type { EntitySpec } from './spec';
import { isGuid } from './values';

/** `/{id}` or `/{key}` of the same shape, per the entity's segment rule. */
export function readSegmentLookup(spec: EntitySpec, segment: string): RecordLookup {
  const keyName = spec.key[0] as string;
  if (spec.segmentLookup === 'intKeyOrId') {
    if (/^-?\d+$/.test(segment)) return { by: 'key', values: [readKeyValue(spec, keyName, segment)] };
    if (isGuid(segment)) return { by: 'id', id: segment.toLowerCase() };
    throw validationError([{ path: keyName, message: `'${segment}' is neither an integer ${keyName} nor a GUID id.` }]);
  }
  if (isGuid(segment)) return { by: 'idOrKey', id: segment.toLowerCase(), key: segment };
  return { by: 'key', values: [segment] };
}

function readKeyValue(spec: EntitySpec, name: string, raw: string): unknown {
  const field = spec.fields[name];
  if (field?.kind === 'int') {
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value)) {
      throw validationError([{ path: name, message: `${name} must be an integer, got '${raw}'.` }]);
    }
    return value;
  }
  if (raw === '') throw validationError([{ path: name, message: `${name} must not be empty.` }]);
  return raw;
}

/** Key path parameters (`/{companyKey}/{routeKey}/...`) -> a key lookup. */
export function readKeyLookup(spec: EntitySpec, segments: readonly string[]): RecordLookup {
  if (segments.length !== spec.key.length) throw new ApiError('NotFound', 'Unknown path.');
  return { by: 'key', values: spec.key.map((name, index) => readKeyValue(spec, name, segments[index] as string)) };
}

/** `If-Match: "3"` -> 3; `*` or absent -> undefined. A value that is not one of our ETags can never match. */
export function readIfMatch(request: Request): number | undefined {
  const header = request.headers.get('if-match');
  if (header === null || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(header);
  if (!match?.[1]) return -1;
  return Number(match[1]);
}
