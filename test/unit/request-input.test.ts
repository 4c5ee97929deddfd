/** The pure checks behind the input hardening of issue 13: raw request targets and JSON text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { findInvalidUtf8, findTooDeepField, formatFieldPath } from '../../src/http/json-input';
import { formatMessage } from '../../src/messages/catalogue';
import { hasLoneSurrogate } from '../../src/validation/unicode';
import { checkRequestTarget, hasDotSegment, splitRawTarget } from '../../src/http/request-target';

function refusal(url: string): ApiError | undefined {
  try {
    checkRequestTarget(url);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

describe('request targets', () => {
  it('splits the raw path and query without resolving anything', () => {
    expect(splitRawTarget('https://h/a/../b/%2e?x=%FF#f')).toEqual({ path: '/a/../b/%2e', query: 'x=%FF' });
    expect(splitRawTarget('https://h')).toEqual({ path: '/', query: '' });
  });

  it('finds dot segments, raw or percent-encoded, and nothing else', () => {
    for (const path of ['/a/../b', '/a/./b', '/a/%2e%2e', '/a/.%2E/b', '/a/%2E./b', '/a/%2e/', '/..']) {
      expect(hasDotSegment(`https://h${path}`), path).toBe(true);
    }
    for (const path of ['/a/...', '/a/.b', '/a/b.', '/a/%2e%2e%2e', '/a/%252e%252e', '/a/..b']) {
      expect(hasDotSegment(`https://h${path}`), path).toBe(false);
    }
    const errors = refusal('https://h/api/t/o/x/../y')?.errors.map((error) => ({
      ...error,
      message: formatMessage(error.message, 'en-US'),
    }));
    expect(errors).toEqual([{ path: 'path', message: expect.stringMatching(/'\.\.'/) }]);
  });

  it('refuses query parameters that are not percent-encoded UTF-8, naming each', () => {
    expect(refusal('https://h/p?a=%FF&b=ok&c%ED%A0%80=1&d=%E2%82')?.errors.map((error) => error.path)).toEqual(['a', 'c%ED%A0%80', 'd']);
    expect(refusal('https://h/p?a=%E2%82%AC&b=x+y&c&=z')).toBeUndefined();
  });
});

/** UTF-8 text with one byte overwritten: mostly valid multi-byte sequences with a fault somewhere. */
const mutatedUtf8 = fc
  .tuple(fc.string({ unit: 'binary', maxLength: 8 }), fc.nat(), fc.integer({ min: 0, max: 255 }))
  .map(([text, at, byte]) => {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > 0) bytes[at % bytes.length] = byte;
    return bytes;
  });

describe('JSON text', () => {
  it('agrees with a fatal TextDecoder on which byte strings are UTF-8', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 24 }), mutatedUtf8), (bytes) => {
        let valid = true;
        try {
          new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
        } catch {
          valid = false;
        }
        expect(findInvalidUtf8(bytes) === -1).toBe(valid);
      }),
      { seed: 13, numRuns: 2000 },
    );
  });

  it('names the first field nested too deep, and ignores brackets inside strings', () => {
    expect(findTooDeepField('{"a":[{"b":[[1]]}]}', 4)).toBe('a[0].b[0]');
    expect(findTooDeepField('{"a":"[[[[[[","b\\"[":[1]}', 2)).toBeUndefined();
    expect(findTooDeepField('{"k\\"ey":{"x":{}}}', 2)).toBe('k"ey.x');
    expect(findTooDeepField('[[[', 2)).toBe('[0][0]');
  });

  it('formats paths and finds lone surrogates', () => {
    expect(formatFieldPath([0, 'company'])).toBe('[0].company');
    expect(formatFieldPath(['lines', 2, 'x'])).toBe('lines[2].x');
    expect(hasLoneSurrogate('a\ud800')).toBe(true);
    expect(hasLoneSurrogate('\udfffa')).toBe(true);
    expect(hasLoneSurrogate('\ud83d\ude00')).toBe(false);
  });
});
