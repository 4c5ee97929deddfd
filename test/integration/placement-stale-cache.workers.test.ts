/**
 * An isolate whose cached placement still names the old database after a move (simulated by putting the old
 * placement back into this isolate's cache) never answers from it and never writes to it: the residency guard
 * in every D1 batch sends it to the directory. Workers-only: it drives the Worker's fetch in this isolate.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { readCachedPlacement, rememberPlacement } from '../../src/tenant/placement/cache';
import { mintToken, ORIGIN } from '../helpers/api';
import { movePlacement } from '../helpers/operator';
import { findTenantDatabase, readTestDatabases } from '../helpers/tenant-db';
import { uniqueKey } from '../helpers/tenants';

const scope = { tenantKey: uniqueKey('stale'), orgKey: uniqueKey('cache') };
const API = `/api/${scope.tenantKey}/${scope.orgKey}`;
const TEMPLATES = `${API}/operations/emailTemplates`;

async function fetchHere(method: string, path: string, body?: unknown): Promise<Response> {
  const token = await mintToken({ tenant: scope.tenantKey, org: scope.orgKey, scope: 'application admin' });
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

const template = (key: string) => ({
  templateKey: key,
  subject: `Real ${key}`,
  emailTemplateType: 1,
  notificationBody: 'B',
  culture: 'en-US',
});

async function countRows(db: D1Database, key: string): Promise<number> {
  const row = await db
    .prepare('SELECT count(*) AS n FROM email_templates WHERE tenant_key = ? AND org_key = ? AND template_key = ?')
    .bind(scope.tenantKey, scope.orgKey, key)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe('a stale placement cache after a move', () => {
  it('reads and writes the new database only', async () => {
    expect((await fetchHere('POST', TEMPLATES, template('before'))).status).toBe(201);
    const old = (await findTenantDatabase(scope)) ?? '';
    expect(readCachedPlacement(scope)).toBe(old);
    const target = readTestDatabases().names.find((name) => name !== old) ?? '';
    expect((await movePlacement(scope.tenantKey, scope.orgKey, target)).status).toBe(200);
    const oldDb = readTestDatabases().tenants.get(old) as D1Database;
    const newDb = readTestDatabases().tenants.get(target) as D1Database;

    // A decoy left in the old database: answering from there would show it.
    await oldDb
      .prepare(
        `INSERT INTO email_templates (id, tenant_key, org_key, template_key, subject, email_template_type, notification_body, culture,
           custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by)
         VALUES ('00000000-0000-4000-8000-00000000dead', ?, ?, 'before', 'STALE', 1, 'B', 'en-US', '{}', 1, 9, '2020-01-01T00:00:00.000Z', 'x', '2020-01-01T00:00:00.000Z', 'x')`,
      )
      .bind(scope.tenantKey, scope.orgKey)
      .run();

    rememberPlacement(scope, old);
    const read = await fetchHere('GET', `${TEMPLATES}/before`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { subject: string }).subject).toBe('Real before');
    expect(read.headers.get('x-d1-bookmark')?.startsWith(`${target}:`)).toBe(true);
    expect(readCachedPlacement(scope)).toBe(target);

    rememberPlacement(scope, old);
    expect((await fetchHere('POST', TEMPLATES, template('after'))).status).toBe(201);
    rememberPlacement(scope, old);
    expect((await fetchHere('PUT', `${TEMPLATES}/before/subject`, 'Changed')).status).toBe(200);
    rememberPlacement(scope, old);
    const imported = await fetchHere('POST', `${API}/corePatterns/importDataInfos`, { importDataTemplate: 'stale' });
    expect(imported.status).toBe(201);

    expect(await countRows(newDb, 'after')).toBe(1);
    expect(await countRows(oldDb, 'after')).toBe(0);
    const changed = await newDb
      .prepare("SELECT subject FROM email_templates WHERE tenant_key = ? AND template_key = 'before'")
      .bind(scope.tenantKey)
      .first<{ subject: string }>();
    expect(changed?.subject).toBe('Changed');
    const decoy = await oldDb.prepare('SELECT subject, version FROM email_templates WHERE tenant_key = ?').bind(scope.tenantKey).all();
    expect(decoy.results).toEqual([{ subject: 'STALE', version: 9 }]);
    const imports = await oldDb
      .prepare('SELECT count(*) AS n FROM import_data_infos WHERE tenant_key = ?')
      .bind(scope.tenantKey)
      .first<{ n: number }>();
    expect(imports?.n).toBe(0);
  });
});
