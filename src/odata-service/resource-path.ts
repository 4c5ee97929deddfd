/**
 * The resource path of a request on the standard root (pure): `emailTemplates`, `emailTemplates('welcome')`,
 * `emailTemplates(templateKey='welcome')`, `routes(company='C1',routeKey='R1')/locations`, `.../$count`. Each segment is
 * percent-decoded first; string literals double a quote inside (`'It''s'`); an unquoted GUID names a record by id.
 */
import { odataError } from '../odata/lexer';

/** One value of a key predicate, as written. */
export type KeyValue =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'number'; readonly value: string }
  | { readonly type: 'guid'; readonly value: string };

/** A key predicate: one unnamed value, or `name=value` pairs. */
export interface KeyPredicate {
  readonly values: readonly { readonly name?: string; readonly value: KeyValue }[];
}

type ResourcePath =
  | { readonly kind: 'collection'; readonly set: string; readonly count: boolean }
  | { readonly kind: 'entity'; readonly set: string; readonly key: KeyPredicate }
  | { readonly kind: 'navigation'; readonly set: string; readonly key: KeyPredicate; readonly navigation: string; readonly count: boolean };

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/;
const NUMBER = /^-?\d+/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw odataError('path', undefined, `'${raw}' is not valid percent-encoding`);
  }
}

/** Reads one literal at `at`; answers it and the position after it. */
function readValue(text: string, at: number): { value: KeyValue; end: number } {
  if (text[at] === "'") {
    let value = '';
    let index = at + 1;
    for (;;) {
      const quote = text.indexOf("'", index);
      if (quote === -1) throw odataError('key', at, 'unterminated string literal');
      value += text.slice(index, quote);
      if (text[quote + 1] !== "'") return { value: { type: 'string', value }, end: quote + 1 };
      value += "'";
      index = quote + 2;
    }
  }
  const rest = text.slice(at);
  const guid = GUID.exec(rest);
  if (guid) return { value: { type: 'guid', value: guid[0].toLowerCase() }, end: at + guid[0].length };
  const number = NUMBER.exec(rest);
  if (number) return { value: { type: 'number', value: number[0] }, end: at + number[0].length };
  throw odataError('key', at, `expected a key value ('text', a number or a GUID), got '${rest.slice(0, 20)}'`);
}

/** `('a')`, `(name='a',other=2)`: the text between the parentheses of a segment. */
export function parseKeyPredicate(text: string): KeyPredicate {
  const values: { name?: string; value: KeyValue }[] = [];
  let at = 0;
  for (;;) {
    const name = NAME.exec(text.slice(at));
    const named = name !== null && text[at + name[0].length] === '=';
    const start = named ? at + name[0].length + 1 : at;
    const { value, end } = readValue(text, start);
    values.push(named ? { name: name[0], value } : { value });
    if (end === text.length) break;
    if (text[end] !== ',') throw odataError('key', end, `expected ',' or ')' after a key value`);
    at = end + 1;
  }
  if (values.length > 1 && values.some((entry) => entry.name === undefined)) {
    throw odataError('key', 0, 'a key of several values names each one (name=value,...)');
  }
  return { values };
}

/** `name` or `name(predicate)`. */
function splitSegment(segment: string): { name: string; key?: KeyPredicate } {
  const open = segment.indexOf('(');
  if (open === -1) return { name: segment };
  if (!segment.endsWith(')')) throw odataError('key', segment.length, `expected ')' at the end of '${segment}'`);
  return { name: segment.slice(0, open), key: parseKeyPredicate(segment.slice(open + 1, -1)) };
}

/** The resource path after the service root (as sent, percent-encoded; no leading slash). */
export function parseResourcePath(raw: string): ResourcePath {
  const segments = raw
    .split('/')
    .filter((segment, index, all) => segment !== '' || index < all.length - 1)
    .map(decodeSegment);
  const [first = '', second, third, ...rest] = segments;
  const { name: set, key } = splitSegment(first);
  if (rest.length > 0) throw odataError('path', undefined, `the path has more segments than the service answers ('${segments.join('/')}')`);
  if (!key) {
    if (third !== undefined || (second !== undefined && second !== '$count')) {
      throw odataError('path', undefined, `after the entity set '${set}' only $count or a key predicate may follow`);
    }
    return { kind: 'collection', set, count: second === '$count' };
  }
  if (second === undefined) return { kind: 'entity', set, key };
  if (second.startsWith('$')) throw odataError('path', undefined, `'${second}' cannot follow a single entity`);
  if (third !== undefined && third !== '$count') throw odataError('path', undefined, `only $count may follow the navigation '${second}'`);
  return { kind: 'navigation', set, key, navigation: second, count: third === '$count' };
}
