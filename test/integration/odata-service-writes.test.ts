/** The standard OData v4 root: writes translated to today's operations, OData JSON errors, authorization and tenant/org isolation. */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../helpers/api';
import { callService, serviceRootOf } from '../helpers/odata-service';
import type { ODataError } from '../helpers/odata-service';
import { seedRouteReferenceData } from '../helpers/routes';
import { freshTenant, siblingOrg } from '../helpers/tenants';

type Entity = Record<string, unknown>;

const template = (key: string) => ({
  templateKey: key,
  subject: 'Hello',
  notificationBody: 'Body',
  culture: 'en-US',
  emailTemplateType: 'Text',
});

describe('writes', () => {
  it('POST answers 201 with the created entity and its Location on the standard root, or 204 with return=minimal', async () => {
    const client = await freshTenant();
    const created = await callService<Entity>(client, 'POST', 'emailTemplates', { body: template("o'k") });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(`${serviceRootOf(client)}emailTemplates('o''k')`);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.body).toMatchObject({
      '@odata.context': `${serviceRootOf(client)}$metadata#emailTemplates/$entity`,
      '@odata.etag': '"1"',
      templateKey: "o'k",
      emailTemplateType: 'Text',
      createdBy: 'tester',
    });
    expect((await callService<Entity>(client, 'GET', created.headers.get('location') ?? '')).status).toBe(200);

    const minimal = await callService(client, 'POST', 'emailTemplates', { body: template('min'), headers: { prefer: 'return=minimal' } });
    expect(minimal.status).toBe(204);
    expect(minimal.text).toBe('');
    expect(minimal.headers.get('location')).toBe(`${serviceRootOf(client)}emailTemplates('min')`);
    expect(minimal.headers.get('odata-entityid')).toBe(minimal.headers.get('location'));
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');

    await seedRouteReferenceData(client);
    const route = await callService<Entity>(client, 'POST', 'routes', {
      body: { routeKey: 'R 1', description: 'Round', company: 'C1', tools: ['T1'] },
    });
    expect(route.status, route.text).toBe(201);
    expect(route.headers.get('location')).toBe(`${serviceRootOf(client)}routes(company='C1',routeKey='R%201')`);
    expect(route.body.tools).toBeUndefined();
    const expanded = await callService<Entity>(client, 'GET', `${route.headers.get('location') ?? ''}?$expand=tools`);
    expect(expanded.body.tools).toEqual([expect.objectContaining({ key: 'T1' })]);
  });

  it('refuses bad input with the same codes and per-field messages as today, in the OData error format', async () => {
    const client = await freshTenant();
    const body = { templateKey: 'x', emailTemplateType: 9 };
    const today = await client.call<Problem>('POST', '/operations/emailTemplates', { body });
    const standard = await callService<ODataError>(client, 'POST', 'emailTemplates', { body });
    expect(standard.status).toBe(today.status);
    expect(standard.headers.get('content-type')).toMatch(/^application\/json/);
    expect(standard.body.error).toEqual({
      code: today.body.code,
      message: today.body.detail,
      target: today.body.errors[0]?.path,
      details: today.body.errors.map((field) => ({ code: today.body.code, message: field.message, target: field.path })),
    });
    expect(standard.body.error.details.length).toBeGreaterThan(1);
    const spanish = await callService<ODataError>(client, 'POST', 'emailTemplates', { body, headers: { 'accept-language': 'es-ES' } });
    expect(spanish.headers.get('content-language')).toBe('es-ES');
    expect(spanish.body.error.details[0]?.message).not.toBe(standard.body.error.details[0]?.message);

    expect((await callService(client, 'POST', 'emailTemplates', { body: template('dup') })).status).toBe(201);
    const duplicate = await callService<ODataError>(client, 'POST', 'emailTemplates', { body: template('dup') });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error.code).toBe('DuplicateKey');
  });

  it('takes an Idempotency-Key as today: the same POST twice creates once and answers the same', async () => {
    const client = await freshTenant();
    const headers = { 'idempotency-key': 'standard-root-1' };
    const first = await callService<Entity>(client, 'POST', 'emailTemplates', { body: template('idem'), headers });
    const again = await callService<Entity>(client, 'POST', 'emailTemplates', { body: template('idem'), headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('odata-version')).toBe('4.0');
    expect((await callService<string>(client, 'GET', 'emailTemplates/$count')).body).toBe('1');
  });

  it('DELETE by key answers 204, then the record is gone; a stale If-Match is a 412 OData error', async () => {
    const client = await freshTenant();
    await callService(client, 'POST', 'emailTemplates', { body: template('gone') });
    const stale = await callService<ODataError>(client, 'DELETE', "emailTemplates('gone')", { headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('PreconditionFailed');
    expect((await callService(client, 'DELETE', "emailTemplates('gone')", { headers: { 'if-match': '"1"' } })).status).toBe(204);
    expect((await callService(client, 'GET', "emailTemplates('gone')")).status).toBe(404);
    expect((await callService<ODataError>(client, 'DELETE', "emailTemplates('gone')")).body.error).toMatchObject({
      code: 'RecordNotFound',
      target: 'templateKey',
    });
  });

  it('writes reference records by key (PUT upserts one, DELETE deletes it); standard lists and POST are 405', async () => {
    const client = await freshTenant();
    await seedRouteReferenceData(client);
    const put = await callService(client, 'PUT', "companies('C3')", { body: { name: 'Company Three', baseCurrency: 'EUR' } });
    expect(put.status, put.text).toBe(204);
    expect((await callService<Entity>(client, 'GET', "companies('C3')")).body).toMatchObject({ key: 'C3', name: 'Company Three' });
    const invalid = await callService<ODataError>(client, 'PUT', "companies('C4')", { body: { name: 'No currency' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.map((detail) => detail.target)).toEqual(['[0].baseCurrency']);
    expect((await callService(client, 'DELETE', "companies('C3')")).status).toBe(204);
    expect((await callService(client, 'GET', "companies('C3')")).status).toBe(404);
    const inUse = await callService<ODataError>(client, 'DELETE', "companies('C1')");
    expect(inUse.body.error.code).toBe('ReferenceInUse');
    const standard = await callService<ODataError>(client, 'PUT', "cultures('xx-XX')", { body: { name: 'X' } });
    expect(standard.status).toBe(405);
    expect(standard.headers.get('allow')).toBe('GET');
    expect((await callService(client, 'POST', 'companies', { body: { key: 'C5' } })).status).toBe(405);
    const onEntity = await callService<ODataError>(client, 'POST', "companies('C1')", { body: {} });
    expect(onEntity.status).toBe(405);
    expect(onEntity.body.error.code).toBe('MethodNotAllowed');
  });
});

describe('authorization and isolation', () => {
  it('needs the token: 401 and 403 answers are OData errors', async () => {
    const client = await freshTenant();
    const none = await callService<ODataError>(client, 'GET', 'emailTemplates', { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.body.error.code).toBe('Unauthorized');
    const reader = await freshTenant('r', 'application');
    const forbidden = await callService<ODataError>(reader, 'DELETE', "companies('C1')");
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('Forbidden');
  });

  it("another tenant or org sees nothing of the owner's: 403 on the owner's path, 404 and empty lists on its own", async () => {
    const owner = await freshTenant();
    await callService(owner, 'POST', 'emailTemplates', { body: template('secret') });
    const owned = await callService<Entity>(owner, 'GET', "emailTemplates('secret')");
    for (const other of [await freshTenant('x'), await siblingOrg(owner)]) {
      const onOwnerPath = await callService<ODataError>(
        { tenant: owner.tenant, org: owner.org, token: other.token },
        'GET',
        "emailTemplates('secret')",
      );
      expect(onOwnerPath.status).toBe(403);
      expect(onOwnerPath.body.error.code).toBe('Forbidden');
      const byKey = await callService<ODataError>(other, 'GET', "emailTemplates('secret')");
      expect(byKey.status).toBe(404);
      expect(byKey.body.error.code).toBe('RecordNotFound');
      expect((await callService<ODataError>(other, 'GET', `emailTemplates(${String(owned.body.id)})`)).status).toBe(404);
      expect((await callService<{ value: unknown[] }>(other, 'GET', 'emailTemplates')).body.value).toEqual([]);
      expect((await callService<ODataError>(other, 'DELETE', "emailTemplates('secret')")).status).toBe(404);
    }
    expect((await callService<Entity>(owner, 'GET', "emailTemplates('secret')")).body).toEqual(owned.body);
  });
});
