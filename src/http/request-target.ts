/**
 * Checks on the request target before routing: no `.` / `..` path segments (raw or percent-encoded: a URL
 * parser would resolve them into another route), and a query string that decodes as UTF-8 (URLSearchParams would
 * silently turn bad bytes into U+FFFD). Works on the URL text as received, before anything parses it.
 */
import { validationError } from '../errors/api-error';
import type { FieldError } from '../errors/api-error';
import { message } from '../messages/catalogue';

/** The path and query of an absolute URL, exactly as written (no dot-segment removal, no decoding). */
export function splitRawTarget(url: string): { path: string; query: string } {
  const afterScheme = url.indexOf('://');
  const pathStart = afterScheme === -1 ? 0 : url.indexOf('/', afterScheme + 3);
  if (pathStart === -1) return { path: '/', query: '' };
  const hash = url.indexOf('#', pathStart);
  const target = hash === -1 ? url.slice(pathStart) : url.slice(pathStart, hash);
  const question = target.indexOf('?');
  return question === -1 ? { path: target, query: '' } : { path: target.slice(0, question), query: target.slice(question + 1) };
}

/** True for `.` and `..`, also written `%2e`, `.%2E`, ... */
function isDotSegment(segment: string): boolean {
  const decoded = segment.replace(/%2e/gi, '.');
  return decoded === '.' || decoded === '..';
}

/** True when the URL's path, as written, has a `.` or `..` segment. */
export function hasDotSegment(url: string): boolean {
  const { path } = splitRawTarget(url);
  // Most paths have neither a dot nor an escape: nothing to look at segment by segment.
  if (!path.includes('.') && !path.includes('%')) return false;
  return path.split('/').some(isDotSegment);
}

function decodeComponent(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function findQueryErrors(query: string): FieldError[] {
  const errors: FieldError[] = [];
  if (query === '') return errors;
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    const name = decodeComponent(rawName);
    if (name === undefined || decodeComponent(rawValue) === undefined) {
      const path = name ?? rawName;
      errors.push({ path, message: message('queryEncoding', { field: path }) });
    }
  }
  return errors;
}

/** 400 ValidationFailed for a path with dot segments or a query string that is not UTF-8. */
export function checkRequestTarget(url: string): void {
  if (hasDotSegment(url)) {
    throw validationError([{ path: 'path', message: message('dotSegment') }], 'Dot segments are not allowed in the path.');
  }
  const { query } = splitRawTarget(url);
  // Without an escape or a `+` every query character is plain ASCII or already-decoded text: it decodes.
  if (!query.includes('%') && !query.includes('+')) return;
  const errors = findQueryErrors(query);
  if (errors.length > 0) throw validationError(errors, 'The query string is not valid percent-encoded UTF-8.');
}
