/**
 * Requests no fetch() client can send, over raw HTTP/1.1 to the Deno server of this test file (issue 13): dot
 * segments left in the path (L2; fetch and the URL parser would resolve them before sending) and a chunked body over
 * 1 MiB followed by another request on the same keep-alive connection (M5).
 */
import { request as httpRequest, Agent } from 'node:http';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DENO_TEST_JWT_SECRET, readDenoServer } from '../deno/server.js';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let token = '';
let base: URL;
/** `/api/{tenantKey}/{orgKey}` of this test's own tenant/org. */
let api = '';

interface RawAnswer {
  readonly status: number;
  readonly body: string;
}

function send(method: string, path: string, body?: (write: (chunk: string | Buffer) => boolean) => void): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    if (body) body((chunk) => request.write(chunk));
    request.end();
  });
}

beforeAll(() => {
  base = new URL(readDenoServer().baseUrl);
});

beforeEach(async () => {
  const [tenant, org] = [`raw-${crypto.randomUUID().slice(0, 8)}`, `o-${crypto.randomUUID().slice(0, 8)}`];
  api = `/api/${tenant}/${org}`;
  token = await new SignJWT({ scope: 'application', orgs: [`${tenant}/${org}`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('raw-tester')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(DENO_TEST_JWT_SECRET));
  const created = await send('POST', `${api}/businessCore/exchangeRatesDocuments`, (write) =>
    write(JSON.stringify({ number: 1, validFrom: '2026-01-01', exchangeRateType: 1, isExternallyManaged: false })),
  );
  expect(created.status, created.body).toBe(201);
});

afterAll(() => agent.destroy());

describe('dot segments (L2)', () => {
  it('answers 400 before routing, raw or percent-encoded, and deletes nothing', async () => {
    const document = `${api}/businessCore/exchangeRatesDocuments/1`;
    for (const segment of ['..', '%2e%2e', '.%2E', '%2E.', '.', '%2e']) {
      const answer = await send('DELETE', `${document}/exchangeRateDocumentRates/${segment}`);
      expect(answer.status, `${segment}: ${answer.body}`).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'ValidationFailed', errors: [{ path: 'path' }] });
    }
    expect((await send('GET', `${document}/../1`)).status).toBe(400);
    expect((await send('GET', document)).status).toBe(200);
  });
});

describe('chunked bodies over 1 MiB (M5)', () => {
  it('answers 413, and the next request on the same connection is answered normally', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const tooLarge = await send('POST', `${api}/operations/emailTemplates`, (write) => {
      for (let index = 0; index < 40; index += 1) write(chunk);
    });
    expect(tooLarge.status, tooLarge.body).toBe(413);
    const next = await send('GET', `${api}/operations/emailTemplates/odata`);
    expect(next.status, next.body).toBe(200);
  });
});
