/**
 * Where upload bytes go, read back from the R2 bucket (env.IMPORT_FILES: Workers only), and the size limit: a declared
 * length over it is a 413 before anything is stored (Workers only as well: the Deno run's client, Node's fetch, refuses
 * to send a Content-Length that differs from the body, and a real body over 256 MiB is too heavy for a test).
 */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { IMPORTS } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('acme');
});

async function digest(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

describe('upload storage', () => {
  it('stores a file over one part (8 MiB) as a multipart upload, byte for byte', async () => {
    const line = 'R-000000;A route description long enough to make the file grow quickly;C1;L1|L2\n';
    const rows = Math.ceil((9 * 1024 * 1024) / line.length);
    const text =
      'routeKey;description;company;locations\n' +
      Array.from({ length: rows }, (_, index) => line.replace('000000', String(index).padStart(6, '0'))).join('');
    const bytes = new TextEncoder().encode(text);
    expect(bytes.byteLength).toBeGreaterThan(9 * 1024 * 1024);
    const result = await client.call<{ id: string; cloudFileName: string }>('POST', `${IMPORTS}/files?importDataTemplate=routes`, {
      rawBody: bytes,
      headers: { 'content-type': 'text/csv' },
    });
    expect(result.status, result.text).toBe(202);
    const stored = await env.IMPORT_FILES.get(result.body.cloudFileName);
    expect(stored?.size).toBe(bytes.byteLength);
    expect(await digest(await (stored as R2ObjectBody).arrayBuffer())).toBe(await digest(bytes));
  });

  it('refuses a declared length over the limit with 413 before storing anything', async () => {
    const result = await call<Problem>('POST', `${client.base}${IMPORTS}/files?importDataTemplate=routes`, {
      token: client.token,
      rawBody: 'routeKey,description,company\nR1,d,C1\n',
      headers: { 'content-type': 'text/csv', 'content-length': String(256 * 1024 * 1024 + 1) },
    });
    expect(result.status).toBe(413);
    const last = await client.call<unknown[]>('GET', `${IMPORTS}/getLastImports?templateId=routes`);
    expect(last.body).toEqual([]);
  });
});
