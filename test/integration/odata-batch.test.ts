/**
 * `$batch` on the standard root `/odata/{tenantKey}/{orgKey}/$batch` (issue 40): both formats, relative urls resolved
 * against the standard root, absolute paths of either root of the tenant/org, errors in the OData JSON format.
 */
import { SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN } from '../helpers/api';
import type { TenantClient } from '../helpers/api';
import { templateBody } from '../helpers/batch';
import { serviceRootOf } from '../helpers/odata-service';
import { freshTenant } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('odata-batch');
});

function post(body: string, contentType: string, token = client.token): Promise<Response> {
  return SELF.fetch(`${serviceRootOf(client)}$batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body,
  });
}

describe('$batch on the standard root', () => {
  it('JSON: relative urls are entity sets of the standard root; absolute paths of /api/ of the same tenant/org run too', async () => {
    const requests = [
      { id: '1', method: 'POST', url: 'emailTemplates', body: templateBody('od-a') },
      { id: '2', method: 'GET', url: "emailTemplates('od-a')" },
      { id: '3', method: 'GET', url: `/api/${client.tenant}/${client.org}/operations/emailTemplates/od-a` },
    ];
    const response = await post(JSON.stringify({ requests }), 'application/json');
    expect(response.status).toBe(200);
    expect(response.headers.get('odata-version')).toBe('4.0');
    const answer = (await response.json()) as { responses: { status: number; headers: Record<string, string>; body: unknown }[] };
    expect(answer.responses.map((entry) => entry.status)).toEqual([201, 200, 200]);
    expect(answer.responses[0]?.headers.Location).toContain(`${ORIGIN}/odata/${client.tenant}/${client.org}/`);
    expect(answer.responses[1]?.body).toMatchObject({ templateKey: 'od-a' });
  });

  it('multipart: a change set of a create and a read of its $1, answered in the same structure', async () => {
    const body = [
      '--b',
      'Content-Type: multipart/mixed; boundary=c',
      '',
      '--c',
      'Content-Type: application/http',
      'Content-Transfer-Encoding: binary',
      'Content-ID: 1',
      '',
      'POST emailTemplates HTTP/1.1',
      'Content-Type: application/json',
      '',
      JSON.stringify(templateBody('od-mp')),
      '--c',
      'Content-Type: application/http',
      'Content-Transfer-Encoding: binary',
      'Content-ID: 2',
      '',
      'GET $1 HTTP/1.1',
      '',
      '--c--',
      '--b--',
      '',
    ].join('\r\n');
    const response = await post(body, 'multipart/mixed; boundary=b');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed; boundary=/);
    expect(text).toContain('Content-ID: 1\r\n\r\nHTTP/1.1 201 Created');
    expect(text).toContain('Content-ID: 2\r\n\r\nHTTP/1.1 200 OK');
    expect(text).toContain('"templateKey":"od-mp"');
  });

  it('a malformed batch is refused in the OData JSON error format, naming the field', async () => {
    const response = await post('no frame', 'multipart/mixed; boundary=b');
    expect(response.status).toBe(400);
    const error = (await response.json()) as { error: { code: string; details: { target: string }[] } };
    expect(error.error.details[0]?.target).toBe('body');
  });
});
