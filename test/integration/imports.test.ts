import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, ORIGIN } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { changeImport, IMPORTS, readHistory, readImport, registerImport, registerImportIn } from '../helpers/imports';
import type { ImportResource } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('acme');
});

function validate(as: TenantClient, id: string) {
  return as.call<ImportResource & Problem>('GET', `${IMPORTS}/validateImportDataState?id=${id}`);
}

describe('registration', () => {
  it('answers 201 with the id and a Location that reads the Pending import', async () => {
    const result = await client.call<string>('POST', IMPORTS, {
      body: { importDataTemplate: 'items', originalFileName: 'items.xlsx', importName: 'Items March', cloudFileName: 'blob/items.xlsx' },
    });
    expect(result.status, result.text).toBe(201);
    expect(result.body).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.headers.get('location')).toBe(`${ORIGIN}${client.base}${IMPORTS}/${result.body}`);
    const read = await call<ImportResource>('GET', new URL(result.headers.get('location') ?? '').pathname, { token: client.token });
    expect(read.body).toMatchObject({
      id: result.body,
      importDataTemplate: 'items',
      originalFileName: 'items.xlsx',
      importName: 'Items March',
      cloudFileName: 'blob/items.xlsx',
      importDataState: 1,
      detailLog: null,
      error: null,
      lastProgressUpdateOn: null,
      drillDownOperation: null,
      reverted: false,
      version: 1,
    });
    expect(await readHistory(client, result.body)).toMatchObject([{ seq: 1, kind: 'register', fromState: null, toState: 1 }]);
  });

  it('numbers keys 1, 2, 3 per tenant/org', async () => {
    const fresh = await freshTenant('acme');
    const neighbour = await freshTenant('globex');
    const ids = [await registerImport(fresh), await registerImport(fresh), await registerImport(fresh)];
    const keys = await Promise.all(ids.map(async (id) => (await readImport(fresh, id)).key));
    expect(keys).toEqual([1, 2, 3]);
    expect((await readImport(neighbour, await registerImport(neighbour))).key).toBe(1);
  });

  it('names every invalid field, including fields the server sets', async () => {
    const result = await client.call<Problem>('POST', IMPORTS, { body: { originalFileName: 7, importDataState: 2, key: 9, bogus: 1 } });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual([
      'bogus',
      'importDataState',
      'importDataTemplate',
      'key',
      'originalFileName',
    ]);
    const blank = await client.call<Problem>('POST', IMPORTS, { body: { importDataTemplate: '  ' } });
    expect(blank.body.errors.map((error) => error.path)).toEqual(['importDataTemplate']);
  });

  it('reads by id: 400 for a non-GUID, 404 for an unknown id', async () => {
    expect((await client.call<Problem>('GET', `${IMPORTS}/nope`)).status).toBe(400);
    const missing = await client.call<Problem>('GET', `${IMPORTS}/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('RecordNotFound');
  });
});

describe('validateImportDataState', () => {
  it('returns the import unchanged while it is fresh', async () => {
    const id = await registerImportIn(client, 2);
    const result = await validate(client, id);
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ id, importDataState: 2, version: 2 });
  });

  it('marks Fatal an import whose stored progress is old (real clock), keeping an existing error', async () => {
    const id = await registerImportIn(client, 2);
    await changeImport(client, { importId: id, error: 'disk full' });
    await env.DB.prepare('UPDATE import_data_infos SET last_progress_update_on = ? WHERE id = ?')
      .bind('2026-01-01T00:00:00.000Z', id)
      .run();
    const result = await validate(client, id);
    expect(result.body).toMatchObject({ importDataState: 5, error: 'disk full' });
  });

  it('leaves old imports in other states alone', async () => {
    const pending = await registerImport(client);
    const failed = await registerImportIn(client, 4);
    for (const id of [pending, failed]) {
      await env.DB.prepare('UPDATE import_data_infos SET last_progress_update_on = ?, modified_on = ? WHERE id = ?')
        .bind('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', id)
        .run();
    }
    expect((await validate(client, pending)).body.importDataState).toBe(1);
    expect((await validate(client, failed)).body.importDataState).toBe(4);
  });

  it('answers 400 for a missing or malformed id and 400 RecordNotFound for an unknown one', async () => {
    const missing = await client.call<Problem>('GET', `${IMPORTS}/validateImportDataState`);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error) => error.path)).toEqual(['id']);
    expect((await validate(client, 'xyz')).status).toBe(400);
    const unknown = await validate(client, crypto.randomUUID());
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('RecordNotFound');
  });
});

describe('getLastImports', () => {
  it("returns the template's imports newest first, 10 by default, top up to 100", async () => {
    const scoped = await freshTenant('acme');
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1)
      ids.push(await registerImport(scoped, { importDataTemplate: 'orders', importName: `n${index}` }));
    await registerImport(scoped, { importDataTemplate: 'other' });
    const all = await scoped.call<ImportResource[]>('GET', `${IMPORTS}/getLastImports?templateId=orders`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.map((item) => item.id)).toEqual(ids.slice(2).reverse());
    expect(all.body[0]).toMatchObject({ key: 12, importName: 'n11', importDataState: 1 });
    const three = await scoped.call<ImportResource[]>('GET', `${IMPORTS}/getLastImports?templateId=orders&top=3`);
    expect(three.body.map((item) => item.key)).toEqual([12, 11, 10]);
    const none = await scoped.call<ImportResource[]>('GET', `${IMPORTS}/getLastImports?templateId=unknown`);
    expect(none.body).toEqual([]);
  });

  it('answers 400 without templateId and for top outside 1..100', async () => {
    const missing = await client.call<Problem>('GET', `${IMPORTS}/getLastImports?top=0`);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error) => error.path).sort()).toEqual(['templateId', 'top']);
    for (const top of ['101', 'abc', '-1']) {
      const result = await client.call<Problem>('GET', `${IMPORTS}/getLastImports?templateId=x&top=${top}`);
      expect(result.status, top).toBe(400);
    }
  });
});

describe('revertImportFile', () => {
  it('reverts the latest succeeded imports one by one, then warns', async () => {
    const template = `rev-${crypto.randomUUID()}`;
    const older = await registerImportIn(client, 3, { importDataTemplate: template, originalFileName: 'a.csv' });
    const newer = await registerImportIn(client, 3, { importDataTemplate: template, originalFileName: 'b.csv' });
    await registerImportIn(client, 4, { importDataTemplate: template });
    const first = await client.call<{ revertedTypeMessage: number; message: string }>('POST', `${IMPORTS}/revertImportFile`, {
      body: { templateKey: template },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.revertedTypeMessage).toBe(1);
    expect(first.body.message).toContain('b.csv');
    expect(await readImport(client, newer)).toMatchObject({ reverted: true, importDataState: 3, version: 4 });
    expect((await readHistory(client, newer)).at(-1)).toMatchObject({ kind: 'revert', fromState: 3, toState: 3 });
    const second = await client.call<{ revertedTypeMessage: number; message: string }>(
      'POST',
      `${IMPORTS}/revertImportFile?templateKey=${template}`,
    );
    expect(second.body.revertedTypeMessage).toBe(1);
    expect((await readImport(client, older)).reverted).toBe(true);
    const third = await client.call<{ revertedTypeMessage: number; message: string }>('POST', `${IMPORTS}/revertImportFile`, {
      body: { templateKey: template },
    });
    expect(third.status).toBe(200);
    expect(third.body).toEqual({ revertedTypeMessage: 2, message: expect.stringContaining(template) });
  });

  it('answers 400 without templateKey or with unknown body properties', async () => {
    const missing = await client.call<Problem>('POST', `${IMPORTS}/revertImportFile`);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error) => error.path)).toEqual(['templateKey']);
    const bogus = await client.call<Problem>('POST', `${IMPORTS}/revertImportFile`, { body: { templateKey: 'x', extra: 1 } });
    expect(bogus.body.errors.map((error) => error.path)).toEqual(['extra']);
  });
});

describe('routing', () => {
  it('answers 405 for a wrong method', async () => {
    const wrong = await client.call('DELETE', `${IMPORTS}/changeDataImport`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('POST');
  });
});
