/**
 * Checks on JSON request text before and after it is parsed: nesting depth (a linear scan, no recursion, so a
 * deeply nested body can neither overflow a stack here nor be stored and break later reads), UTF-8 validity of
 * the raw bytes, and well-formed strings (no lone surrogates from `\ud800` escapes). Each failure names the field.
 */
import type { FieldError } from '../errors/api-error';
import { message } from '../messages/catalogue';
import { hasLoneSurrogate } from '../validation/unicode';

/** Most levels of arrays and objects a body may nest (the body's own object or array is level 1). */
export const MAX_JSON_DEPTH = 32;

type Segment = string | number;

/** `['lines', 2, 'custom_x']` -> `lines[2].custom_x`; a top-level array index -> `[2]`. */
export function formatFieldPath(segments: readonly Segment[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += path === '' ? segment : `.${segment}`;
  }
  return path;
}

interface Frame {
  readonly array: boolean;
  key: Segment | undefined;
  expectingKey: boolean;
}

interface ScanResult {
  /** Path of the first container nested deeper than the limit. */
  readonly tooDeep?: string;
  /** Path of the value being read where the scan stopped. */
  readonly current: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the closing quote of the string opening at `start` (or the text's length when unterminated). */
function findStringEnd(text: string, start: number): number {
  let index = start + 1;
  for (;;) {
    const quote = text.indexOf('"', index);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let back = quote - 1; back > start && text.charCodeAt(back) === BACKSLASH; back -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    index = quote + 1;
  }
}

function decodeKey(literal: string): string {
  try {
    return String(JSON.parse(literal));
  } catch {
    return literal.slice(1, -1);
  }
}

function pathOf(stack: readonly Frame[]): string {
  return formatFieldPath(stack.map((frame) => frame.key).filter((key): key is Segment => key !== undefined));
}

/**
 * Walks the structure of JSON text up to `end` in one pass (malformed text is left to JSON.parse). Strings are
 * skipped with indexOf, so the cost is linear in the text and small next to parsing it.
 */
function scanStructure(text: string, maxDepth: number, end = text.length): ScanResult {
  const stack: Frame[] = [];
  for (let index = 0; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      const close = findStringEnd(text, index);
      const top = stack[stack.length - 1];
      if (close >= end) return { current: pathOf(top?.expectingKey ? stack.slice(0, -1) : stack) };
      if (top && !top.array && top.expectingKey) top.key = decodeKey(text.slice(index, close + 1));
      index = close;
    } else if (code === 0x7b || code === 0x5b) {
      if (stack.length >= maxDepth) return { tooDeep: pathOf(stack), current: pathOf(stack) };
      const array = code === 0x5b;
      stack.push({ array, key: array ? 0 : undefined, expectingKey: !array });
    } else if (code === 0x7d || code === 0x5d) {
      stack.pop();
    } else if (code === 0x3a) {
      const top = stack[stack.length - 1];
      if (top) top.expectingKey = false;
    } else if (code === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.array) top.key = Number(top.key) + 1;
      else if (top) top.expectingKey = true;
    }
  }
  return { current: pathOf(stack) };
}

/** The field nested deeper than `maxDepth`, or undefined. */
export function findTooDeepField(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  return scanStructure(text, maxDepth).tooDeep;
}

/** Byte offset of the first byte that does not start or continue valid UTF-8, or -1 when all is valid. */
export function findInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] ?? 0;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    let length: number;
    let min: number;
    let max = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
    else if (lead === 0xe0) [length, min] = [3, 0xa0];
    else if (lead === 0xed) [length, min, max] = [3, 0x80, 0x9f];
    else if (lead >= 0xe1 && lead <= 0xef) [length, min] = [3, 0x80];
    else if (lead === 0xf0) [length, min] = [4, 0x90];
    else if (lead === 0xf4) [length, min, max] = [4, 0x80, 0x8f];
    else if (lead >= 0xf1 && lead <= 0xf3) [length, min] = [4, 0x80];
    else return index;
    const second = bytes[index + 1];
    if (second === undefined || second < min || second > max) return index;
    for (let next = 2; next < length; next += 1) {
      const byte = bytes[index + next];
      if (byte === undefined || byte < 0x80 || byte > 0xbf) return index;
    }
    index += length;
  }
  return -1;
}

/** Decodes UTF-8 text, refusing invalid bytes with the field they are in (not a silent U+FFFD). */
export function decodeUtf8Field(bytes: Uint8Array): { text: string } | { error: FieldError } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    const offset = Math.max(0, findInvalidUtf8(bytes));
    const prefix = new TextDecoder().decode(bytes.subarray(0, offset));
    const path = scanStructure(prefix, Number.MAX_SAFE_INTEGER).current;
    return { error: { path, message: message('invalidUtf8', { field: path || 'body', offset }) } };
  }
}

/** The first string (value or property name) of a parsed body with a lone surrogate, as a field error. */
export function findIllFormedString(value: unknown, segments: Segment[] = []): FieldError | undefined {
  if (typeof value === 'string') {
    if (!hasLoneSurrogate(value)) return undefined;
    const path = formatFieldPath(segments);
    return { path, message: message('loneSurrogate', { field: path || 'body' }) };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findIllFormedString(value[index], [...segments, index]);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (hasLoneSurrogate(key)) {
      const path = formatFieldPath([...segments, key]);
      return { path, message: message('loneSurrogateName', { name: JSON.stringify(key) }) };
    }
    const found = findIllFormedString(item, [...segments, key]);
    if (found) return found;
  }
  return undefined;
}
