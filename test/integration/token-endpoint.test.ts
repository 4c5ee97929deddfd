/**
 * POST /connect/token (OAuth2 client credentials, RFC 6749 4.4): tokens the API verifies, client authentication in the
 * form body or with HTTP Basic, scopes and orgs of the client, and every RFC 6749 5.2 error.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, tenantClient } from '../helpers/api';
import { freshTenant, uniqueKey } from '../helpers/tenants';
import type { Problem, TenantClient } from '../helpers/api';
import { basicAuthorization, createApiClient, requestToken, tokenFor } from '../helpers/identity';
import type { ApiClientAnswer } from '../helpers/identity';

const TEMPLATES = '/operations/emailTemplates';

let admin: TenantClient;
let client: ApiClientAnswer;
let wide: ApiClientAnswer;

beforeAll(async () => {
  const tenant = uniqueKey('oauth');
  admin = await tenantClient(tenant, uniqueKey('o'), 'application admin', [`${tenant}/*`]);
  client = await createApiClient(admin, { name: 'Connector' });
  wide = await createApiClient(admin, { name: 'Tenant tool', scopes: ['application', 'admin'], orgs: ['*'] });
});

const credentials = (of: ApiClientAnswer) => ({ grant_type: 'client_credentials', client_id: of.clientId, client_secret: of.clientSecret });

function bearer(token: string, tenant = admin.tenant, org = admin.org) {
  return (method: string, path: string, body?: unknown) =>
    call<unknown>(method, `/api/${tenant}/${org}${path}`, { token, ...(body === undefined ? {} : { body }) });
}

describe('issuing tokens', () => {
  it('answers a bearer token with expires_in and the scopes, not cached; the API accepts it', async () => {
    const result = await requestToken(credentials(client));
    expect(result.status, result.text).toBe(200);
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(result.headers.get('pragma')).toBe('no-cache');
    expect(result.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'application' });
    const claims = decodeJwt(result.body.access_token);
    expect(decodeProtectedHeader(result.body.access_token)).toMatchObject({ alg: 'HS256', typ: 'at+jwt' });
    expect(claims).toMatchObject({
      sub: client.clientId,
      client_id: client.clientId,
      scope: 'application',
      orgs: [`${admin.tenant}/${admin.org}`],
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    const api = bearer(result.body.access_token);
    expect((await api('GET', `${TEMPLATES}/odata`)).status).toBe(200);
    const created = await api('POST', TEMPLATES, {
      templateKey: 'by-client',
      subject: 'Hi',
      emailTemplateType: 1,
      notificationBody: 'Hello',
      culture: 'en-US',
    });
    expect(created.status, created.text).toBe(201);
    const read = await api('GET', `${TEMPLATES}/by-client`);
    expect(read.body).toMatchObject({ createdBy: client.clientId });
  });

  it('authenticates the client with HTTP Basic too', async () => {
    const result = await requestToken(
      { grant_type: 'client_credentials' },
      { authorization: basicAuthorization(client.clientId, client.clientSecret) },
    );
    expect(result.status, result.text).toBe(200);
    expect((await bearer(result.body.access_token)('GET', `${TEMPLATES}/odata`)).status).toBe(200);
  });

  it('grants the scopes asked for, each one the client holds (default: all of them)', async () => {
    const all = await requestToken(credentials(wide));
    expect(all.body.scope).toBe('application admin');
    const upsert = (token: string) => bearer(token)('PUT', '/referenceData/tools', [{ key: 'T1', description: 'Torch' }]);
    expect((await upsert(all.body.access_token)).status).toBe(200);
    const narrow = await tokenFor(wide, 'application');
    expect((await upsert(narrow)).status).toBe(403);
    expect((await upsert(await tokenFor(wide, ' admin  application '))).status).toBe(200);
  });

  it('gives a client with orgs * every org of its tenant, and no other tenant', async () => {
    const token = await tokenFor(wide);
    expect(decodeJwt(token).orgs).toEqual([`${admin.tenant}/*`]);
    expect((await bearer(token, admin.tenant, 'branch')('GET', `${TEMPLATES}/odata`)).status).toBe(200);
    expect((await bearer(token, uniqueKey('other'), admin.org)('GET', `${TEMPLATES}/odata`)).status).toBe(403);
    const main = await tokenFor(client);
    expect((await bearer(main, admin.tenant, 'branch')('GET', `${TEMPLATES}/odata`)).status).toBe(403);
  });
});

describe('RFC 6749 errors', () => {
  async function expectError(
    result: Awaited<ReturnType<typeof requestToken>>,
    status: number,
    error: string,
    description: RegExp,
  ): Promise<void> {
    expect(result.status, result.text).toBe(status);
    expect(result.headers.get('content-type')).toMatch(/^application\/json/);
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(result.body.error).toBe(error);
    expect(result.body.error_description).toMatch(description);
    expect(result.body.error_description).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
  }

  it('invalid_client (401, WWW-Authenticate Basic): wrong secret, unknown or malformed client, no credentials, bad Basic', async () => {
    const cases = [
      requestToken({ ...credentials(client), client_secret: `${client.clientSecret}x` }),
      requestToken({ ...credentials(client), client_id: `${admin.tenant}~${admin.org}~${'0'.repeat(24)}` }),
      requestToken({ ...credentials(client), client_id: 'not-a-client-id' }),
      requestToken({ ...credentials(client), client_id: `${admin.tenant}~bad org~${'0'.repeat(24)}` }),
      requestToken({ grant_type: 'client_credentials' }),
      requestToken({ grant_type: 'client_credentials', client_id: client.clientId }),
      requestToken({ grant_type: 'client_credentials' }, { authorization: 'Basic !!!' }),
      requestToken({ grant_type: 'client_credentials' }, { authorization: basicAuthorization(client.clientId, 'wrong') }),
    ];
    for (const result of await Promise.all(cases)) {
      await expectError(result, 401, 'invalid_client', /client|secret|Basic/);
      expect(result.headers.get('www-authenticate')).toMatch(/^Basic realm="erp-edge-api"/);
    }
  });

  it('invalid_request: no grant_type, a repeated parameter, a JSON body, two ways of client authentication', async () => {
    await expectError(
      await requestToken({ client_id: client.clientId, client_secret: client.clientSecret }),
      400,
      'invalid_request',
      /grant_type/,
    );
    const repeated = await call<{ error: string; error_description: string }>('POST', '/connect/token', {
      rawBody: `grant_type=client_credentials&grant_type=client_credentials&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('grant_type') });
    const json = await call<{ error: string }>('POST', '/connect/token', { body: credentials(client) });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
    const both = await requestToken(credentials(client), { authorization: basicAuthorization(client.clientId, client.clientSecret) });
    await expectError(both, 400, 'invalid_request', /one way/);
  });

  it('unsupported_grant_type and invalid_scope', async () => {
    await expectError(
      await requestToken({ ...credentials(client), grant_type: 'password' }),
      400,
      'unsupported_grant_type',
      /client_credentials/,
    );
    await expectError(await requestToken({ ...credentials(client), scope: 'admin' }), 400, 'invalid_scope', /admin/);
    await expectError(await requestToken({ ...credentials(client), scope: 'application root' }), 400, 'invalid_scope', /root/);
  });

  it('a GET is 405 (problem+json, Allow: POST)', async () => {
    const result = await call<Problem>('GET', '/connect/token');
    expect(result.status).toBe(405);
    expect(result.headers.get('allow')).toBe('POST');
  });
});

describe('tenant isolation', () => {
  it("a client id pointed at another tenant or org finds nothing there (401), and another tenant's client is unknown here", async () => {
    const random = client.clientId.split('~')[2] ?? '';
    for (const clientId of [`${uniqueKey('other')}~${admin.org}~${random}`, `${admin.tenant}~branch~${random}`]) {
      const result = await requestToken({ ...credentials(client), client_id: clientId });
      expect(result.status).toBe(401);
      expect(result.body.error).toBe('invalid_client');
    }
    const strangerAdmin = await freshTenant('stranger');
    const stranger = await createApiClient(strangerAdmin, { name: 'Elsewhere' });
    const token = await tokenFor(stranger);
    expect((await bearer(token)('GET', `${TEMPLATES}/odata`)).status).toBe(403);
    expect((await bearer(token, strangerAdmin.tenant, strangerAdmin.org)('GET', `${TEMPLATES}/by-client`)).status).toBe(404);
  });
});
