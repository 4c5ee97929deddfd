/**
 * M5 of issue 13: a body over 1 MiB sent chunked (no Content-Length) is 413, and it is read to its end (and dropped)
 * before the answer. A body left half read stalls the next request in `wrangler dev`, whose proxy forwards requests
 * to the Worker over HTTP; here the test's own stream shows how much the Worker pulled, and whether it cancelled.
 */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { mintToken, ORIGIN } from '../helpers/api';
import { uniqueKey } from '../helpers/tenants';

const CHUNK = 64 * 1024;

function countingStream(chunks: number): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let sent = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) return controller.close();
      sent += 1;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => sent * CHUNK, cancelled: () => cancelled };
}

describe('chunked bodies over 1 MiB (M5)', () => {
  it('answers 413 after reading the rest of the body, never leaving it half read; the next request is unaffected', async () => {
    const [tenant, org] = [uniqueKey('chunked'), uniqueKey('o')];
    const token = await mintToken({ tenant, org });
    const body = countingStream(48); // 3 MiB
    const response = await SELF.fetch(`${ORIGIN}/api/${tenant}/${org}/operations/emailTemplates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body.stream,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('PayloadTooLarge');
    expect(body.cancelled()).toBe(false);
    expect(body.pulled()).toBe(48 * CHUNK);
    const [otherTenant, otherOrg] = [uniqueKey('other'), uniqueKey('o')];
    const next = await SELF.fetch(`${ORIGIN}/api/${otherTenant}/${otherOrg}/operations/emailTemplates/odata`, {
      headers: { authorization: `Bearer ${await mintToken({ tenant: otherTenant, org: otherOrg })}` },
    });
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  });
});
