/**
 * `$skiptoken`: the opaque position of a keyset page. It holds the values of the last row's order columns and a
 * check (HMAC-SHA-256, keyed with a server secret, of the list's path, filter, order and those values), so a token
 * edited by hand, forged, or taken from another list, filter or order is refused with 400 rather than read as a
 * position in a different order: without the server's secret nobody can compute a check that passes.
 */
import { odataError } from './lexer';
import type { CursorValue, OrderColumn } from './order';
import type { ODataQuery } from './types';

/** What a token is bound to: the list (path, so tenant/org and entity), its filter and its order. */
export function describeCursorContext(path: string, query: ODataQuery, columns: readonly OrderColumn[]): string {
  const order = columns.map((column) => `${column.field.column} ${column.descending ? 'desc' : 'asc'}`).join(',');
  return `${path}\n${order}\n${JSON.stringify(query.filter ?? null)}`;
}

function encodeBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

let checkKey: { secret: string; key: CryptoKey } | undefined;

async function readCheckKey(secret: string): Promise<CryptoKey> {
  if (checkKey?.secret === secret) return checkKey.key;
  const material = new TextEncoder().encode(`erp-edge-api $skiptoken\n${secret}`);
  const key = await crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  checkKey = { secret, key };
  return key;
}

async function computeCheck(secret: string, context: string, values: readonly CursorValue[]): Promise<string> {
  const data = new TextEncoder().encode(`${context}\n${JSON.stringify(values)}`);
  const mac = await crypto.subtle.sign('HMAC', await readCheckKey(secret), data);
  return encodeBase64Url(new Uint8Array(mac)).slice(0, 22);
}

/** The value of a row's order column as a token carries it (booleans as stored: 0/1). */
export function toCursorValue(value: unknown): CursorValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' || typeof value === 'number') return value;
  return null;
}

/** A token for the position `values` in the list `context`; `secret` keys its check (config.pageTokenSecret). */
export async function encodeSkipToken(context: string, values: readonly CursorValue[], secret: string): Promise<string> {
  const check = await computeCheck(secret, context, values);
  return encodeBase64Url(new TextEncoder().encode(JSON.stringify([values, check])));
}

function isCursorValue(value: unknown): value is CursorValue {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The position a token names, or 400 InvalidODataQuery naming `$skiptoken`. */
export async function decodeSkipToken(context: string, token: string, length: number, secret: string): Promise<CursorValue[]> {
  const refuse = () =>
    odataError('$skiptoken', undefined, 'not a page token of this list, filter and order (follow nextPageLink as given)');
  const bytes = decodeBase64Url(token);
  if (!bytes || bytes.length > 16 * 1024) throw refuse();
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw refuse();
  const [values, check]: unknown[] = parsed;
  if (!Array.isArray(values) || values.length !== length || typeof check !== 'string') throw refuse();
  const checked: CursorValue[] = [];
  for (const value of values) {
    if (!isCursorValue(value)) throw refuse();
    checked.push(value);
  }
  if ((await computeCheck(secret, context, checked)) !== check) throw refuse();
  return checked;
}
