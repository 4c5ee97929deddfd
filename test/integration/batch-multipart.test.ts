/**
 * `$batch` in the OData 4.0 multipart format (issue 40): parts and change sets read into the one engine of the JSON
 * format, each change set atomic, `$<Content-ID>` references, answered as multipart in the request's structure; and,
 * in both formats, header names in their usual case, a method the target does not take answered by that request alone
 * (405 with Allow), an entry Authorization equal to the batch's accepted and another one refused for that entry only.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import apiReference from '../../docs/api-reference.md?raw';
import odataGuide from '../../docs/odata.md?raw';
import { call } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { sendBatch, templateBody } from '../helpers/batch';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = 'operations/emailTemplates';
const BOUNDARY = 'batch_5f0c';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('batch-mp');
});

/** One request part: MIME headers, request line, headers, body. */
function part(line: string, options: { contentId?: string; headers?: readonly string[]; body?: unknown } = {}): string {
  const body = options.body === undefined ? '' : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers = [
    ...(options.headers ?? []),
    ...(options.body !== undefined && typeof options.body !== 'string' ? ['Content-Type: application/json'] : []),
  ];
  return [
    'Content-Type: application/http',
    'Content-Transfer-Encoding: binary',
    ...(options.contentId ? [`Content-ID: ${options.contentId}`] : []),
    '',
    `${line} HTTP/1.1`,
    'Host: api.test',
    ...headers,
    '',
    body,
  ].join('\r\n');
}

function multipart(parts: readonly string[], boundary: string): string {
  return `${parts.map((text) => `--${boundary}\r\n${text}\r\n`).join('')}--${boundary}--\r\n`;
}

function changeset(parts: readonly string[], boundary = 'changeset_77a1'): string {
  return `Content-Type: multipart/mixed; boundary=${boundary}\r\n\r\n${multipart(parts, boundary)}`;
}

/** An answer part read back: status, headers (names as sent), body; or a change set's parts. */
interface AnswerPart {
  readonly contentId?: string;
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly changeset?: AnswerPart[];
}

function readHead(lines: readonly string[]): Record<string, string> {
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
}

/** A multipart answer read with a parser of the test's own (not the product's). */
function readMultipart(text: string, contentType: string): AnswerPart[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)?.[1] ?? '';
  const body = text.slice(0, text.lastIndexOf(`--${boundary}--`));
  return body
    .split(`--${boundary}\r\n`)
    .slice(1)
    .map((raw) => {
      const [mime = '', ...rest] = raw.replace(/\r\n$/, '').split('\r\n\r\n');
      const head = readHead(mime.split('\r\n'));
      const content = rest.join('\r\n\r\n');
      if (head['Content-Type']?.startsWith('multipart/mixed')) return { changeset: readMultipart(content, head['Content-Type']) };
      const [status = '', ...inner] = (content.split('\r\n\r\n')[0] ?? '').split('\r\n');
      return {
        ...(head['Content-ID'] ? { contentId: head['Content-ID'] } : {}),
        status: Number(status.split(' ')[1]),
        headers: readHead(inner),
        body: content.slice(content.indexOf('\r\n\r\n') + 4),
      };
    });
}

async function sendMultipart(target: TenantClient, parts: readonly string[], headers: Record<string, string> = {}) {
  const answer = await target.call('POST', '/$batch', {
    rawBody: multipart(parts, BOUNDARY),
    headers: { 'content-type': `multipart/mixed; boundary=${BOUNDARY}`, ...headers },
  });
  const contentType = answer.headers.get('content-type') ?? '';
  return { ...answer, parts: contentType.startsWith('multipart/mixed') ? readMultipart(answer.text, contentType) : [] };
}

async function countTemplates(): Promise<number> {
  return (await client.call<{ items: unknown[] }>('GET', `/${TEMPLATES}/odata`)).body.items.length;
}

describe('$batch in the multipart format', () => {
  it('runs reads and a change set of a create, a write and a read of its $1, answering the same structure', async () => {
    const answer = await sendMultipart(client, [
      part(`GET ${TEMPLATES}/odata?$top=1`),
      changeset([
        part(`POST ${TEMPLATES}`, { contentId: '1', body: templateBody('mp-a') }),
        part(`PUT ${TEMPLATES}/mp-a/subject`, {
          contentId: '2',
          body: '"$1"',
          headers: ['Content-Type: application/json', 'If-Match: "1"'],
        }),
        part('GET $1', { contentId: '3' }),
      ]),
      part(`GET ${client.base}/${TEMPLATES}/mp-a`),
    ]);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('odata-version')).toBe('4.0');
    const [list, set, read] = answer.parts;
    expect(list?.status).toBe(200);
    // A part without Content-ID is logged and answered as <batch id>:<position>; a named one as <batch id>:<Content-ID>.
    expect(list?.headers?.['X-Request-Id']).toMatch(/^[0-9a-f-]{36}:1$/);
    expect(set?.changeset?.[0]?.headers?.['X-Request-Id']).toMatch(/^[0-9a-f-]{36}:1$/);
    expect(JSON.parse(list?.body ?? '{}')).toMatchObject({ items: [] });
    expect(set?.changeset?.map((inner) => [inner.contentId, inner.status])).toEqual([
      ['1', 201],
      ['2', 200],
      ['3', 200],
    ]);
    const created = set?.changeset?.[0];
    const id = String(JSON.parse(created?.body ?? '""'));
    expect(created?.headers?.Location).toBe(`https://api.test${client.base}/${TEMPLATES}/${id}`);
    expect(set?.changeset?.[1]?.headers?.ETag).toBe('"2"');
    expect(JSON.parse(set?.changeset?.[2]?.body ?? '{}')).toMatchObject({ id, templateKey: 'mp-a' });
    expect(read?.status).toBe(200);
    expect(JSON.parse(read?.body ?? '{}')).toMatchObject({ templateKey: 'mp-a', subject: id, version: 2 });
  });

  it('a change set is atomic: one failing create writes nothing of it, and the change set answers that one error', async () => {
    const answer = await sendMultipart(client, [
      changeset([
        part(`POST ${TEMPLATES}`, { contentId: 'a', body: templateBody('mp-ok') }),
        part(`POST ${TEMPLATES}`, { contentId: 'b', body: { templateKey: 'mp-bad' } }),
        part(`POST ${TEMPLATES}`, { contentId: 'c', body: templateBody('mp-ok-2') }),
      ]),
      part(`POST ${TEMPLATES}`, { contentId: 'after', body: templateBody('mp-after') }),
    ]);
    expect(answer.status).toBe(200);
    const [set, after] = answer.parts;
    expect(set?.changeset).toBeUndefined();
    expect(set).toMatchObject({ contentId: 'b', status: 400 });
    expect(JSON.parse(set?.body ?? '{}')).toMatchObject({ code: 'ValidationFailed' });
    expect(after).toMatchObject({ contentId: 'after', status: 201 });
    expect(await countTemplates()).toBe(1);
    expect((await client.call('GET', `/${TEMPLATES}/mp-ok`)).status).toBe(404);
  });

  it('answers a method its target does not take (405 with Allow) in that part alone', async () => {
    const answer = await sendMultipart(client, [
      part(`PATCH ${TEMPLATES}`, { body: { subject: 'x' } }),
      part(`POST ${TEMPLATES}`, { body: templateBody('mp-405') }),
    ]);
    expect(answer.parts.map((inner) => inner.status)).toEqual([405, 201]);
    expect(answer.parts[0]?.headers?.Allow).toContain('POST');
  });

  it('refuses a malformed multipart batch whole (naming the part), and another tenant/org, before anything runs', async () => {
    const unframed = await client.call<Problem>('POST', '/$batch', {
      rawBody: `--${BOUNDARY}\r\n${part(`POST ${TEMPLATES}`, { body: templateBody('never') })}\r\n`,
      headers: { 'content-type': `multipart/mixed; boundary=${BOUNDARY}` },
    });
    expect(unframed.status).toBe(400);
    expect(unframed.body.errors[0]).toMatchObject({ path: 'body' });
    const nested = await sendMultipart(client, [
      part(`POST ${TEMPLATES}`, { body: templateBody('never') }),
      changeset([changeset([part(`GET ${TEMPLATES}`)], 'inner_1')]),
    ]);
    expect(nested.status).toBe(400);
    expect((nested.body as Problem).errors.map((error) => error.path)).toEqual(['parts[1].parts[0]']);
    const other = await freshTenant('batch-mp-other');
    const foreign = await sendMultipart(client, [part(`GET /api/${other.tenant}/${other.org}/${TEMPLATES}/odata`)]);
    expect(foreign.status).toBe(400);
    expect((foreign.body as Problem).errors[0]).toMatchObject({ path: 'parts[0].url' });
    const intruder = await call('POST', `${client.base}/$batch`, {
      token: other.token,
      rawBody: multipart([part(`POST ${TEMPLATES}`, { body: templateBody('intruder') })], BOUNDARY),
      headers: { 'content-type': `multipart/mixed; boundary=${BOUNDARY}` },
    });
    expect(intruder.status).toBe(403);
    expect(await countTemplates()).toBe(0);
  });

  it('replays the whole multipart answer for the same Idempotency-Key, and writes once', async () => {
    const parts = [changeset([part(`POST ${TEMPLATES}`, { contentId: '1', body: templateBody('mp-idem') })])];
    const first = await sendMultipart(client, parts, { 'idempotency-key': 'mp-key-1' });
    const second = await sendMultipart(client, parts, { 'idempotency-key': 'mp-key-1' });
    expect(first.parts[0]?.changeset?.map((inner) => inner.status)).toEqual([201]);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second.text).toBe(first.text);
    expect(await countTemplates()).toBe(1);
  });

  it("accepts a part's Authorization equal to the batch's, and refuses another one in that part alone", async () => {
    const answer = await sendMultipart(client, [
      part(`POST ${TEMPLATES}`, { contentId: 'same', body: templateBody('mp-auth'), headers: [`Authorization: Bearer ${client.token}`] }),
      part(`GET ${TEMPLATES}/mp-auth`, { contentId: 'other', headers: ['Authorization: Bearer someone-else'] }),
    ]);
    expect(answer.parts.map((inner) => [inner.contentId, inner.status])).toEqual([
      ['same', 201],
      ['other', 400],
    ]);
    expect(JSON.parse(answer.parts[1]?.body ?? '{}').errors[0]).toMatchObject({ path: 'parts[1].headers.authorization' });
  });
});

/** The multipart request bodies of a docs page: fenced blocks whose body (after an http block's head) opens `--batch_1`. */
function readMultipartExamples(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```(http|text)\n([\s\S]*?)```/g)];
  return blocks.flatMap((block) => {
    const text = block[1] === 'http' ? (block[2] ?? '').slice((block[2] ?? '').indexOf('\n\n') + 2) : (block[2] ?? '');
    return text.startsWith('--batch_1\n') ? [text] : [];
  });
}

describe('the multipart examples of docs/api-reference.md and docs/odata.md', () => {
  it('answer as documented (LF line breaks, as pasted), and the same when sent again', async () => {
    const examples = [...readMultipartExamples(apiReference), ...readMultipartExamples(odataGuide)];
    expect(examples).toHaveLength(2);
    for (const [index, example] of examples.entries()) {
      for (const attempt of [1, 2]) {
        const answer = await client.call('POST', '/$batch', {
          rawBody: example,
          headers: { 'content-type': 'multipart/mixed; boundary=batch_1' },
        });
        const parts = readMultipart(answer.text, answer.headers.get('content-type') ?? '');
        const statuses = parts.map((inner) => inner.status ?? inner.changeset?.map((member) => member.status));
        const where = `example ${index + 1}, attempt ${attempt}: ${answer.text.slice(0, 300)}`;
        expect(statuses, where).toEqual(index === 0 ? [200, [201, 200], 204] : [[201, 200], 204]);
      }
    }
  });
});

describe('$batch in the JSON format, as OData clients send it', () => {
  it('answers header names in their usual case (Content-Type, Location, ETag)', async () => {
    const answer = await sendBatch(client, [
      { id: '1', method: 'POST', url: TEMPLATES, body: templateBody('case') },
      { id: '2', method: 'GET', url: `${TEMPLATES}/case` },
    ]);
    const [created, read] = answer.body.responses;
    expect(Object.keys(created?.headers ?? {})).toEqual(expect.arrayContaining(['Content-Type', 'Location', 'X-Request-Id']));
    expect(read?.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', ETag: '"1"' });
    const lower = answer.body.responses.flatMap((response) => Object.keys(response.headers).filter((name) => name === name.toLowerCase()));
    expect(lower).toEqual([]);
  });

  it('answers a PATCH (or any method) its target does not take with its own 405 and Allow; the others run', async () => {
    const answer = await sendBatch(client, [
      { id: 'patch', method: 'PATCH', url: TEMPLATES, body: { subject: 'x' } },
      { id: 'options', method: 'OPTIONS', url: TEMPLATES },
      { id: 'create', method: 'POST', url: TEMPLATES, body: templateBody('json-405') },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.responses.map((response) => response.status)).toEqual([405, 405, 201]);
    expect(answer.body.responses[0]?.headers.Allow).toContain('POST');
    expect(answer.body.responses[0]?.body).toMatchObject({ code: 'MethodNotAllowed' });
  });

  it("accepts an entry Authorization equal to the batch's; another one answers that entry's 400 and it does not run", async () => {
    const answer = await sendBatch(client, [
      { id: 'same', method: 'POST', url: TEMPLATES, headers: { Authorization: `Bearer ${client.token}` }, body: templateBody('auth-a') },
      { id: 'other', method: 'POST', url: TEMPLATES, headers: { Authorization: 'Bearer not-mine' }, body: templateBody('auth-b') },
      { id: 'after', method: 'GET', url: `${TEMPLATES}/auth-a`, dependsOn: ['same'] },
    ]);
    expect(answer.body.responses.map((response) => response.status)).toEqual([201, 400, 200]);
    const refused = answer.body.responses[1]?.body as Problem;
    expect(refused.errors[0]).toMatchObject({ path: 'requests[1].headers.Authorization' });
    expect(refused.errors[0]?.message).toContain("differs from the batch's own Authorization");
    expect((await client.call('GET', `/${TEMPLATES}/auth-b`)).status).toBe(404);
  });
});
