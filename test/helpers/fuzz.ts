/**
 * Inputs for the fuzz test: a valid-looking sample of a JSON Schema from the OpenAPI document, and fast-check
 * arbitraries that mutate it (fields dropped, replaced by hostile or random JSON, unknown fields, deep nesting,
 * lone surrogates, invalid UTF-8, malformed JSON) and that pick hostile path segments and query values.
 */
import fc from 'fast-check';

type Json = Record<string, unknown>;

export interface Components {
  readonly schemas?: Record<string, Json>;
}

function resolve(schema: Json, components: Components): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return resolve(components.schemas?.[ref.split('/').pop() ?? ''] ?? {}, components);
}

function sampleString(schema: Json): string {
  if (schema.format === 'date-time' || schema.format === 'date') return '2026-01-01T00:00:00Z';
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  return 'x'.repeat(Math.max(1, Math.min(min, 8)));
}

/**
 * A value that fits `schema` in shape (the API may still refuse it: unknown references, rules); `requiredOnly` leaves
 * out optional properties, so that a hostile value in a required field is not hidden by an optional one.
 */
export function sampleSchema(input: Json, components: Components, depth = 0, requiredOnly = false): unknown {
  const schema = resolve(input, components);
  if (depth > 6) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return sampleSchema(options[0] as Json, components, depth + 1, requiredOnly);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((item) => item !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : Object.keys(properties));
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([name]) => !requiredOnly || required.has(name))
          .map(([name, property]) => [name, sampleSchema(property, components, depth + 1, requiredOnly)]),
      );
    }
    case 'array':
      return [sampleSchema((schema.items ?? {}) as Json, components, depth + 1, requiredOnly)];
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'string':
      return sampleString(schema);
    default:
      return 'x';
  }
}

/** Strings that broke or could break input handling. */
export const HOSTILE_STRINGS = [
  '',
  'x'.repeat(300),
  '\ud800',
  'k\udfff',
  '9999-12-31T23:59:59Z',
  '0000-01-01',
  '2026-02-30',
  '1e309',
  '-0.0000001',
  '../..',
  '%FF',
  "' or 1=1 --",
  '\u0000',
  '😀',
];

const hostile = fc.constantFrom(...HOSTILE_STRINGS);
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostile,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, 0, -1, 2 ** 53, 1e308, -1e-308, [], {}, [[[]]]),
);

/** A body as sent: JSON to serialise, or raw text/bytes. */
export type FuzzBody = { readonly json: unknown } | { readonly raw: string | Uint8Array };

/** `{"a":...}` nested `levels` deep, as text (too deep for the API: 400 naming the field). */
function nestedText(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

function replaceAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaceAt(item, rest, replacement) : item));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    if (replacement === undefined && rest.length === 0)
      return Object.fromEntries(Object.entries(copy).filter(([key]) => key !== String(head)));
    copy[String(head)] = replaceAt(copy[String(head)], rest, replacement);
    return copy;
  }
  return value;
}

function listPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const here = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => listPaths(item, [...prefix, index]))];
  if (typeof value === 'object' && value !== null) {
    return [...here, ...Object.entries(value).flatMap(([key, item]) => listPaths(item, [...prefix, key]))];
  }
  return here;
}

/** Every string and number leaf of `value` replaced by `replacement` (keys and structure kept). */
export function replaceLeaves(value: unknown, replacement: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => replaceLeaves(item, replacement));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceLeaves(item, replacement)]));
  }
  return typeof value === 'string' || typeof value === 'number' ? replacement : value;
}

/** Bodies every operation gets before the random ones: malformed, too deep, not UTF-8, lone surrogates. */
export function listRawBodies(): FuzzBody[] {
  const encoder = new TextEncoder();
  return [
    { raw: nestedText(40) },
    { raw: `[${nestedText(10_000)}]` },
    { raw: '' },
    { raw: '{' },
    { raw: '{"a":1}{' },
    { raw: '{"\\ud800":1}' },
    { raw: '["\\udc00"]' },
    { raw: new Uint8Array([...encoder.encode('{"x":"'), 0xc3, 0x28, ...encoder.encode('"}')]) },
    { raw: new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('{}')]) },
  ];
}

/** Mutations of a sample body; the sample itself is one of them. */
export function mutatedBody(sample: unknown): fc.Arbitrary<FuzzBody> {
  const paths = listPaths(sample);
  const atPath = paths.length > 0 ? fc.constantFrom(...paths) : fc.constant([] as (string | number)[]);
  return fc.oneof(
    fc.constant({ json: sample }),
    hostileJson.map((json) => ({ json })),
    fc.tuple(atPath, hostileJson).map(([path, value]) => ({ json: replaceAt(sample, path, value) })),
    atPath.map((path) => ({ json: replaceAt(sample, path, undefined) })),
    fc.tuple(fc.string({ maxLength: 12 }), hostileJson).map(([name, value]) => ({
      json: typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? { ...sample, [name]: value } : [sample, value],
    })),
    fc.constantFrom(...listRawBodies()),
  );
}

/** A path segment: the known good value mostly, else something hostile (percent-encoded as a client would). */
export function pathSegment(known: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(known) },
    { weight: 1, arbitrary: hostile.map((text) => (text === '\ud800' || text === 'k\udfff' ? '%ED%A0%80' : encodeURIComponent(text))) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))) },
  );
}

/** A query value: a sample, something hostile, or absent. */
export function queryValue(sample: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(fc.constant(sample), fc.constant(undefined), hostile, fc.string({ maxLength: 20 }));
}
