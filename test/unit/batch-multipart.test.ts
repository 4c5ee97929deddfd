/** The multipart batch format (src/services/batch/multipart-parse.ts, multipart-answer.ts) and JSON answer header case: pure. */
import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/messages/catalogue';
import { formatHeaderName, toJsonResponses } from '../../src/services/batch/answer';
import type { BatchResponse } from '../../src/services/batch/answer';
import { writeMultipartAnswer } from '../../src/services/batch/multipart-answer';
import { parseMultipartBatch, readBoundary, splitParts } from '../../src/services/batch/multipart-parse';
import type { MultipartBatch } from '../../src/services/batch/multipart-parse';
import { checkEntries } from '../../src/services/batch/parse';

const TARGET = { origin: 'https://api.test', tenantKey: 'acme', orgKey: 'main' };
const TYPE = 'multipart/mixed; boundary=batch_1';

/** A multipart body of `parts` (each its lines) under `boundary`, lines joined by `eol`. */
function multipart(parts: readonly (readonly string[])[], boundary = 'batch_1', eol = '\r\n'): string {
  return [...parts.flatMap((part) => [`--${boundary}`, ...part]), `--${boundary}--`, ''].join(eol);
}

const request = (line: string, headers: readonly string[] = [], body?: string, contentId?: string) => [
  'Content-Type: application/http',
  'Content-Transfer-Encoding: binary',
  ...(contentId ? [`Content-ID: ${contentId}`] : []),
  '',
  line,
  ...headers,
  '',
  ...(body === undefined ? [] : [body]),
];

const changeset = (boundary: string, parts: readonly (readonly string[])[]) => [
  `Content-Type: multipart/mixed; boundary=${boundary}`,
  '',
  multipart(parts, boundary),
];

function read(text: string, type = TYPE): MultipartBatch {
  const parsed = parseMultipartBatch(text, type);
  if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
  return parsed;
}

function faults(text: string, type = TYPE): { path: string; text: string }[] {
  const parsed = parseMultipartBatch(text, type);
  if (!('errors' in parsed)) throw new Error('expected faults');
  return parsed.errors.map((error) => ({ path: error.path, text: formatMessage(error.message, 'en-US') }));
}

const TEMPLATE = JSON.stringify({ templateKey: 'a', subject: 'Hi' });

describe('the multipart batch format, read', () => {
  it('reads requests and a change set (Content-ID, $1, Host and Content-Length dropped, JSON bodies) into entries and layout', () => {
    const text = multipart([
      request('GET operations/emailTemplates?$top=1 HTTP/1.1', ['Host: api.test']),
      changeset('cs_1', [
        request(
          'POST operations/emailTemplates HTTP/1.1',
          ['Content-Type: application/json', `Content-Length: ${TEMPLATE.length}`],
          TEMPLATE,
          '1',
        ),
        request('PATCH $1 HTTP/1.1', ['Content-Type: application/json', 'If-Match: "1"'], '{"subject":"$1"}', '2'),
      ]),
      request('DELETE /api/acme/main/operations/emailTemplates/a HTTP/1.1'),
    ]);
    const batch = read(text);
    expect(batch.layout).toEqual([{ request: 0 }, { changeset: [1, 2] }, { request: 3 }]);
    expect(batch.paths).toEqual(['parts[0]', 'parts[1].parts[0]', 'parts[1].parts[1]', 'parts[2]']);
    expect(batch.entries[0]).toEqual({ method: 'GET', url: 'operations/emailTemplates?$top=1', headers: {} });
    expect(batch.entries[1]).toEqual({
      method: 'POST',
      url: 'operations/emailTemplates',
      headers: { 'content-type': 'application/json' },
      body: { templateKey: 'a', subject: 'Hi' },
      id: '1',
      atomicityGroup: 'changeset-1',
    });
    const checked = checkEntries(batch.entries, TARGET, false, {
      authorization: null,
      optionalIds: true,
      pathOf: (index) => batch.paths[index] ?? '',
    });
    if ('errors' in checked) throw new Error(JSON.stringify(checked.errors));
    expect(
      checked.plan.requests.map((entry) => [entry.id, entry.method, entry.path, entry.atomicityGroup ?? null, entry.references]),
    ).toEqual([
      ['#1', 'GET', 'parts[0]', null, []],
      ['1', 'POST', 'parts[1].parts[0]', 'changeset-1', []],
      ['2', 'PATCH', 'parts[1].parts[1]', 'changeset-1', ['1']],
      ['#4', 'DELETE', 'parts[2]', null, []],
    ]);
    expect(checked.plan.requests[2]?.url).toEqual({ base: '1', rest: '' });
  });

  it('reads LF line breaks as CRLF, a quoted boundary, a preamble and an epilogue, and a part without its final blank line', () => {
    const body = multipart([request('GET x HTTP/1.1'), request('GET y')], "b'(1)", '\n');
    const text = `This is a preamble.\n${body}This is the epilogue.\n--b'(1)\nContent-Type: application/http\n\nGET z\n`;
    const batch = read(text, 'Multipart/Mixed ; charset=utf-8; Boundary="b\'(1)"');
    expect(batch.entries.map((entry) => entry.url)).toEqual(['x', 'y']);
    expect(read(multipart([['Content-Type: application/http', '', 'GET x HTTP/1.1']])).entries[0]?.url).toBe('x');
  });

  it('keeps a text body as sent, and a changeset group name no Content-ID has', () => {
    const batch = read(multipart([changeset('c', [request('POST x HTTP/1.1', ['Content-Type: text/csv'], 'a,b\r\n1,2', 'changeset-1')])]));
    expect(batch.entries[0]).toMatchObject({ body: 'a,b\r\n1,2', id: 'changeset-1', atomicityGroup: 'changeset-1_' });
  });

  it('reads the boundary parameter only when it is valid (1 to 70 characters of RFC 2046)', () => {
    expect(readBoundary('multipart/mixed;boundary=abc')).toBe('abc');
    expect(readBoundary('multipart/mixed; boundary="a b"')).toBe('a b');
    expect(readBoundary('multipart/mixed; boundary="a\\"b"')).toBeUndefined();
    expect(readBoundary('multipart/mixed')).toBeUndefined();
    expect(readBoundary('multipart/mixed; boundary=""')).toBeUndefined();
    expect(readBoundary('multipart/mixed; boundary="a "')).toBeUndefined();
    expect(readBoundary(`multipart/mixed; boundary=${'a'.repeat(71)}`)).toBeUndefined();
    expect(readBoundary(`multipart/mixed; boundary=${'a'.repeat(70)}`)).toBe('a'.repeat(70));
    expect(readBoundary('application/json; boundary=abc')).toBeUndefined();
    expect(splitParts('--x\r\nA\r\n--x--', 'x')).toEqual(['A']);
    expect(splitParts('--x--', 'x')).toEqual([]);
    expect(splitParts('--x\r\nA', 'x')).toBeUndefined();
    expect(splitParts('--x\r\nA\r\n--xy\r\n--x--', 'x')).toEqual(['A\r\n--xy']);
  });

  it('refuses a missing boundary, a body without its frame, and names the part at fault', () => {
    expect(faults('', 'multipart/mixed')).toEqual([
      {
        path: 'Content-Type',
        text: "Content-Type must be multipart/mixed with a boundary of 1 to 70 characters (letters, digits, and '()+_,-./:=? or spaces not at its end)",
      },
    ]);
    const unclosed = faults('--batch_1\r\nContent-Type: application/http\r\n\r\nGET x\r\n');
    expect(unclosed).toEqual([
      { path: 'body', text: 'body must be parts each opened by a line --batch_1 and the whole closed by a line --batch_1--' },
    ]);
    expect(faults('no parts at all')[0]?.path).toBe('body');
    const found = faults(
      multipart([
        ['Content-Type: text/plain', '', 'hello'],
        ['Content-Type: application/http', 'Content-Transfer-Encoding: base64', '', 'R0VU'],
        ['not a header', '', 'GET x'],
        request('GET'),
        request('POST x HTTP/1.1', ['Content-Type: application/json'], '{"a":'),
        changeset('c', [changeset('d', [request('GET x')])]),
        ['Content-Type: multipart/mixed; boundary=e', '', '--e--'],
      ]),
    );
    expect(found.map((fault) => fault.path)).toEqual(['parts[0]', 'parts[1]', 'parts[2]', 'parts[5].parts[0]', 'parts[6]']);
    expect(found[4]?.text).toBe('parts[6] is a change set without requests: send at least one, or leave it out');
    expect(found[3]?.text).toBe(
      'parts[5].parts[0] must be application/http (Content-Transfer-Encoding binary) or, outside a change set, a multipart/mixed change set',
    );
    const requests = faults(multipart([request('GET'), request('POST x HTTP/1.1', ['Content-Type: application/json'], '{"a":', '7')]));
    expect(requests).toEqual([
      { path: 'parts[0]', text: 'parts[0] must start with a request line: METHOD url HTTP/1.1' },
      {
        path: 'parts[1].body',
        text: 'Request 7: parts[1].body is not valid JSON (or is nested deeper than 29 levels) although its content-type is JSON',
      },
    ]);
  });

  it('refuses more than 100 requests in all, counted before any is read, and too many header lines', () => {
    const many = Array.from({ length: 101 }, () => request('GET x'));
    expect(faults(multipart(many))).toEqual([{ path: 'body', text: 'body holds 101 requests: send at most 100 in one batch' }]);
    const split = [changeset('c', many.slice(0, 60)), changeset('d', many.slice(60))];
    expect(faults(multipart(split))[0]?.text).toBe('body holds 101 requests: send at most 100 in one batch');
    const headers = Array.from({ length: 53 }, (_, index) => `X-${index}: v`);
    expect(faults(multipart([request('GET x', headers)]))[0]?.path).toBe('parts[0].headers');
    const mime = Array.from({ length: 17 }, (_, index) => `X-${index}: v`);
    expect(faults(multipart([[...mime, 'Content-Type: application/http', '', 'GET x']]))[0]?.path).toBe('parts[0]');
  });
});

const answer = (id: string, status: number, headers: Record<string, string> = {}, body?: unknown): BatchResponse => ({
  id,
  status,
  headers,
  ...(body === undefined ? {} : { body }),
});

describe('the multipart batch answer', () => {
  const boundaries = { batch: 'B', changeset: (index: number) => `C${index}` };

  it('repeats the structure: a part per answer (Content-ID, status line, headers in usual case, body), change sets nested', () => {
    const layout = [{ request: 0 }, { changeset: [1, 2] }];
    const responses = [
      answer('#1', 200, { 'content-type': 'application/json; charset=utf-8', etag: '"1"' }, { a: 1 }),
      answer('1', 201, { 'content-type': 'application/json; charset=utf-8', location: 'https://api.test/x/1' }, 'id-1'),
      answer('2', 204),
    ];
    const text = writeMultipartAnswer(layout, responses, [undefined, '1', '2'], boundaries);
    expect(text).toBe(
      [
        '--B',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'HTTP/1.1 200 OK',
        'Content-Type: application/json; charset=utf-8',
        'ETag: "1"',
        '',
        '{"a":1}',
        '--B',
        'Content-Type: multipart/mixed; boundary=C0',
        '',
        '--C0',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        'Content-ID: 1',
        '',
        'HTTP/1.1 201 Created',
        'Content-Type: application/json; charset=utf-8',
        'Location: https://api.test/x/1',
        '',
        '"id-1"',
        '--C0',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        'Content-ID: 2',
        '',
        'HTTP/1.1 204 No Content',
        '',
        '',
        '--C0--',
        '',
        '--B--',
        '',
      ].join('\r\n'),
    );
    // What it answers reads back as a multipart body of the same structure.
    expect(splitParts(text, 'B')).toHaveLength(2);
  });

  it('answers a failed change set as the one answer of the request that failed it', () => {
    const problem = { code: 'ValidationFailed', status: 400 };
    const responses: BatchResponse[] = [
      { ...answer('1', 424, { 'content-type': 'application/problem+json' }, { status: 424 }), consequence: true },
      answer('2', 400, { 'content-type': 'application/problem+json' }, problem),
      { ...answer('3', 424, { 'content-type': 'application/problem+json' }, { status: 424 }), consequence: true },
    ];
    const text = writeMultipartAnswer([{ changeset: [0, 1, 2] }], responses, ['1', '2', '3'], boundaries);
    const parts = splitParts(text, 'B') ?? [];
    expect(parts).toHaveLength(1);
    expect(parts[0]).toContain('Content-ID: 2\r\n\r\nHTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json');
    expect(parts[0]).toContain(JSON.stringify(problem));
    expect(text).not.toContain('C0');
  });
});

describe('header names in their usual case', () => {
  it.each([
    ['content-type', 'Content-Type'],
    ['location', 'Location'],
    ['etag', 'ETag'],
    ['odata-version', 'OData-Version'],
    ['www-authenticate', 'WWW-Authenticate'],
    ['retry-after', 'Retry-After'],
    ['x-request-id', 'X-Request-Id'],
    ['ratelimit-policy', 'RateLimit-Policy'],
    ['allow', 'Allow'],
  ])('%s -> %s', (name, usual) => expect(formatHeaderName(name)).toBe(usual));

  it('JSON answers carry them, and nothing but the format members', () => {
    const responses = [
      { ...answer('1', 424, { 'content-type': 'application/json', location: 'l' }, 1), atomicityGroup: 'g', consequence: true as const },
    ];
    expect(toJsonResponses(responses)).toEqual([
      { id: '1', status: 424, headers: { 'Content-Type': 'application/json', Location: 'l' }, body: 1, atomicityGroup: 'g' },
    ]);
  });
});
