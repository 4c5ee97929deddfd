/** API clients (OAuth2 client credentials) managed by an admin token: create, list, read, revoke, new secret, delete. */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, mintToken, tenantClient } from '../helpers/api';
import { freshTenant, siblingOrg } from '../helpers/tenants';
import type { Problem, TenantClient } from '../helpers/api';
import { API_CLIENTS, createApiClient, requestToken, tokenFor } from '../helpers/identity';
import type { ApiClientAnswer } from '../helpers/identity';

let admin: TenantClient;
let other: TenantClient;

beforeAll(async () => {
  admin = await freshTenant('clients');
  other = await siblingOrg(admin);
});

describe('creating an API client', () => {
  it('answers 201 with Location, the client and its secret (once, not cached); scopes and orgs default', async () => {
    const result = await admin.call<ApiClientAnswer>('POST', API_CLIENTS, { body: { name: '  Warehouse sync  ' } });
    expect(result.status, result.text).toBe(201);
    expect(result.headers.get('cache-control')).toBe('no-store');
    const client = result.body;
    expect(client.clientId).toMatch(new RegExp(`^${admin.tenant}~${admin.org}~[0-9a-f]{24}$`));
    expect(client.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client).toMatchObject({
      name: 'Warehouse sync',
      scopes: ['application'],
      orgs: [admin.org],
      isActive: true,
      revokedOn: null,
      version: 1,
    });
    expect(result.headers.get('location')).toBe(`https://api.test${admin.base}${API_CLIENTS}/${client.clientId}`);
    const read = await admin.call<Record<string, unknown>>('GET', `${API_CLIENTS}/${client.clientId}`);
    expect(read.status).toBe(200);
    const { clientSecret, ...withoutSecret } = client;
    expect(clientSecret).toBeDefined();
    expect(read.body).toEqual({ ...withoutSecret, createdBy: 'tester', modifiedBy: 'tester' });
    expect(read.body).not.toHaveProperty('secretHash');
  });

  it('takes scopes and orgs of the tenant (or * for all of them)', async () => {
    const tenantAdmin = await tenantClient(admin.tenant, admin.org, 'application admin', [`${admin.tenant}/*`]);
    const client = await createApiClient(tenantAdmin, {
      name: 'Admin tool',
      scopes: ['admin', 'application', 'admin'],
      orgs: ['*', 'main'],
    });
    expect(client.scopes).toEqual(['admin', 'application']);
    expect(client.orgs).toEqual(['*']);
    const listed = await createApiClient(tenantAdmin, { name: 'Two orgs', orgs: ['main', 'other'] });
    expect(listed.orgs).toEqual(['main', 'other']);
  });

  it('names every bad field (400 ValidationFailed)', async () => {
    const result = await admin.call<Problem>('POST', API_CLIENTS, {
      body: { scopes: ['application', 'root'], orgs: ['bad org'], colour: 'blue' },
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual(['colour', 'name', 'orgs.0', 'scopes.1']);
    expect(Object.fromEntries(result.body.errors.map((error) => [error.path, error.message]))).toEqual({
      colour: 'colour is not a property of this request: remove it or correct its name',
      name: 'name is required',
      'orgs.0': 'orgs must be 1 to 64 letters, digits, _, . or -, starting with a letter or digit',
      'scopes.1': 'scopes must be one of application, admin',
    });
    const empty = await admin.call<Problem>('POST', API_CLIENTS, { body: { name: ' ', scopes: [], orgs: [] } });
    expect(empty.body.errors.map((error) => error.path).sort()).toEqual(['name', 'orgs', 'scopes']);
  });

  it('needs the admin scope, and grants only orgs the admin token may use (403)', async () => {
    const application = await tenantClient(admin.tenant, admin.org, 'application');
    expect((await application.call('POST', API_CLIENTS, { body: { name: 'x' } })).status).toBe(403);
    expect((await application.call('GET', API_CLIENTS)).status).toBe(403);
    const narrow = await call<Problem>('POST', `${admin.base}${API_CLIENTS}`, {
      token: await mintToken({ orgs: [`${admin.tenant}/${admin.org}`], scope: 'application admin' }),
      body: { name: 'Escalation', orgs: [admin.org, 'payroll'] },
    });
    expect(narrow.status).toBe(403);
    expect(narrow.body.errors).toEqual([{ path: 'orgs', message: 'The token may not use org payroll, so it cannot grant it' }]);
    const everything = await call<Problem>('POST', `${admin.base}${API_CLIENTS}`, {
      token: await mintToken({ orgs: [`${admin.tenant}/${admin.org}`], scope: 'application admin' }),
      body: { name: 'Escalation', orgs: ['*'] },
    });
    expect(everything.status).toBe(403);
  });
});

describe('managing API clients', () => {
  it('lists the clients of the tenant/org, without secrets', async () => {
    const scoped = await freshTenant('listing');
    const first = await createApiClient(scoped, { name: 'First' });
    const second = await createApiClient(scoped, { name: 'Second' });
    const list = await scoped.call<{ items: Record<string, unknown>[] }>('GET', API_CLIENTS);
    expect(list.status).toBe(200);
    expect(list.body.items.map((item) => item.clientId)).toEqual([first.clientId, second.clientId]);
    for (const item of list.body.items) expect(item).not.toHaveProperty('clientSecret');
  });

  it('revokes a client at once for new tokens; revoking again changes nothing; a revoked client gets no new secret', async () => {
    const client = await createApiClient(admin, { name: 'To revoke' });
    await tokenFor(client);
    const revoked = await admin.call<ApiClientAnswer>('POST', `${API_CLIENTS}/${client.clientId}/revoke`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ isActive: false, version: 2 });
    expect(revoked.body.revokedOn).toEqual(expect.any(String));
    const refused = await requestToken({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    const again = await admin.call<ApiClientAnswer>('POST', `${API_CLIENTS}/${client.clientId}/revoke`);
    expect(again.body).toEqual(revoked.body);
    const rotate = await admin.call<Problem>('POST', `${API_CLIENTS}/${client.clientId}/secret`);
    expect(rotate.status).toBe(400);
    expect(rotate.body.code).toBe('InvalidStateTransition');
  });

  it('gives a new secret (shown once): the old one stops working at once', async () => {
    const client = await createApiClient(admin, { name: 'To rotate' });
    const rotated = await admin.call<ApiClientAnswer>('POST', `${API_CLIENTS}/${client.clientId}/secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body.clientSecret).not.toBe(client.clientSecret);
    expect(rotated.body.version).toBe(2);
    const old = await requestToken({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret });
    expect(old.status).toBe(401);
    await tokenFor({ clientId: client.clientId, clientSecret: rotated.body.clientSecret });
  });

  it('deletes a client (204, then 404 and no token)', async () => {
    const client = await createApiClient(admin, { name: 'To delete' });
    expect((await admin.call('DELETE', `${API_CLIENTS}/${client.clientId}`)).status).toBe(204);
    expect((await admin.call('DELETE', `${API_CLIENTS}/${client.clientId}`)).status).toBe(404);
    expect((await admin.call('GET', `${API_CLIENTS}/${client.clientId}`)).status).toBe(404);
    const refused = await requestToken({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(refused.status).toBe(401);
  });

  it('answers 404 for an unknown client id', async () => {
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/revoke'],
      ['POST', '/secret'],
      ['DELETE', ''],
    ] as const) {
      const result = await admin.call<Problem>(method, `${API_CLIENTS}/${admin.tenant}~${admin.org}~${'0'.repeat(24)}${suffix}`);
      expect(result.status, `${method} ${suffix}`).toBe(404);
      expect(result.body.code).toBe('RecordNotFound');
    }
  });
});

describe('tenant isolation', () => {
  it("another tenant/org's admin sees, revokes and deletes none of these clients", async () => {
    const client = await createApiClient(admin, { name: 'Private' });
    expect((await other.call('GET', `${API_CLIENTS}/${client.clientId}`)).status).toBe(404);
    expect((await other.call('POST', `${API_CLIENTS}/${client.clientId}/revoke`)).status).toBe(404);
    expect((await other.call('POST', `${API_CLIENTS}/${client.clientId}/secret`)).status).toBe(404);
    expect((await other.call('DELETE', `${API_CLIENTS}/${client.clientId}`)).status).toBe(404);
    const list = await other.call<{ items: { clientId: string }[] }>('GET', API_CLIENTS);
    expect(list.body.items.map((item) => item.clientId)).not.toContain(client.clientId);
    const stranger = await freshTenant('elsewhere');
    expect((await call('GET', `${admin.base}${API_CLIENTS}/${client.clientId}`, { token: stranger.token })).status).toBe(403);
    await tokenFor(client);
  });
});

describe("clients beyond the caller's reach", () => {
  it('an admin limited to one org neither lists, reads, re-keys, revokes nor deletes a tenant-wide client (404)', async () => {
    const tenantAdmin = await tenantClient(admin.tenant, admin.org, 'application admin', [`${admin.tenant}/*`]);
    const wide = await createApiClient(tenantAdmin, { name: 'Tenant-wide', orgs: ['*'], scopes: ['admin'] });
    const mine = await createApiClient(admin, { name: 'Within reach' });
    const listed = await admin.call<{ items: ApiClientAnswer[] }>('GET', API_CLIENTS);
    const ids = listed.body.items.map((item) => item.clientId);
    expect(ids).toContain(mine.clientId);
    expect(ids).not.toContain(wide.clientId);
    const unknown = `${admin.tenant}~${admin.org}~${'f'.repeat(24)}`;
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/secret'],
      ['POST', '/revoke'],
      ['DELETE', ''],
    ] as const) {
      const refused = await admin.call<Problem>(method, `${API_CLIENTS}/${wide.clientId}${suffix}`);
      const missing = await admin.call<Problem>(method, `${API_CLIENTS}/${unknown}${suffix}`);
      expect(refused.status, `${method} ${suffix}`).toBe(404);
      expect(refused.body.code).toBe(missing.body.code);
      expect(refused.text).not.toContain('clientSecret');
    }
    // Nothing changed: the wide client's secret still gets its token, and the tenant-wide admin still sees it.
    expect(await tokenFor(wide)).toMatch(/^ey/);
    const all = await tenantAdmin.call<{ items: ApiClientAnswer[] }>('GET', API_CLIENTS);
    expect(all.body.items.map((item) => item.clientId)).toEqual(expect.arrayContaining([wide.clientId, mine.clientId]));
  });
});

describe('tokens of a revoked or deleted client', () => {
  it('stop working at once on the isolate that revoked (within 60 s everywhere)', async () => {
    for (const action of ['revoke', 'delete'] as const) {
      const client = await createApiClient(admin, { name: `Soon ${action}d` });
      const token = await tokenFor(client);
      const list = () => call('GET', `${admin.base}/operations/emailTemplates/odata?$top=1`, { token });
      expect((await list()).status).toBe(200);
      const done =
        action === 'revoke'
          ? await admin.call('POST', `${API_CLIENTS}/${client.clientId}/revoke`)
          : await admin.call('DELETE', `${API_CLIENTS}/${client.clientId}`);
      expect(done.status).toBeLessThan(300);
      const refused = await list();
      expect(refused.status, action).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('invalid_token');
    }
  });
});
