/**
 * Issue 41, file imports: every attack file (bench/lib/attack-files.mjs) stops at its bound in both runtimes, within
 * seconds: refused at upload (413 naming `file`, nothing kept) or Fatal with `error` naming the bound, never retried,
 * its import slot freed; while it is processed `/health` and another tenant's requests answer within a second. A file
 * import reads only its own file: changeDataImport cannot name another, and a step refuses any other key.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAttackFiles, CSV_HEADER } from '../../bench/lib/attack-files.mjs';
import type { AttackFile } from '../../bench/lib/attack-files.mjs';
import { formatMessage, message } from '../../src/messages/catalogue';
import type { MessageKey } from '../../src/messages/catalogue';
import { call } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import type { FileImport } from '../helpers/import-files';
import { waitForImportEnd } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const files = buildAttackFiles();
/** A bound's message (en-US) as a pattern: its parameters any text. */
function patternOf(key: MessageKey): RegExp {
  const text = formatMessage(message(key), 'en-US').replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(text.replace(/\{\w+\}/g, '.+'));
}

let other: TenantClient;

beforeAll(async () => {
  other = await freshTenant('bystander');
});

function upload(client: TenantClient, file: Pick<AttackFile, 'bytes' | 'contentType' | 'fileName'>, query = '') {
  return client.call<FileImport & Problem>('POST', `${IMPORTS}/files?importDataTemplate=emailTemplates${query}`, {
    rawBody: file.bytes,
    headers: { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${file.fileName}"` },
  });
}

/** Until `done` settles: `/health` and another tenant's list, one after the other; the slowest answer of each (ms). */
async function watchOthers(done: Promise<unknown>): Promise<{ health: number; tenant: number; rounds: number }> {
  let settled = false;
  void done.finally(() => (settled = true)).catch(() => undefined);
  const slowest = { health: 0, tenant: 0, rounds: 0 };
  while (!settled) {
    let started = performance.now();
    const health = await call('GET', '/health');
    expect(health.status).toBe(200);
    slowest.health = Math.max(slowest.health, performance.now() - started);
    started = performance.now();
    const list = await other.call('GET', '/operations/emailTemplates/odata?$top=1');
    expect(list.status).toBe(200);
    slowest.tenant = Math.max(slowest.tenant, performance.now() - started);
    slowest.rounds += 1;
  }
  return slowest;
}

describe('attack files', () => {
  it.each(files.map((file) => [file.name, file] as const))(
    '%s stops at its bound within seconds',
    { timeout: 60_000 },
    async (_name, file) => {
      const client = await freshTenant('attack');
      const started = performance.now();
      const sent = upload(client, file);
      if (file.upload === 413) {
        const refused = await sent;
        expect(refused.status, refused.text).toBe(413);
        expect(refused.body.errors.map((error) => error.path)).toEqual(['file']);
        expect(refused.body.errors[0]?.message).toMatch(patternOf(file.key as MessageKey));
        expect(performance.now() - started).toBeLessThan(10_000);
        const listed = await client.call<FileImport[]>('GET', `${IMPORTS}/getLastImports?templateId=emailTemplates`);
        expect(listed.body).toEqual([]);
        return;
      }
      const accepted = await sent;
      expect(accepted.status, accepted.text).toBe(202);
      const ended = waitForImportEnd(client, accepted.body.id);
      const others = await watchOthers(ended);
      const fatal = await ended;
      const seconds = (performance.now() - started) / 1000;
      expect(fatal.importDataState, fatal.error ?? '').toBe(5);
      expect(fatal.error).toMatch(patternOf(file.key as MessageKey));
      // Stopped by its bound in one step, not retried (a step is retried 5 times over a minute before it fails).
      expect(seconds).toBeLessThan(30);
      expect(fatal.error).not.toContain('a step failed');
      expect(others.health).toBeLessThan(1000);
      expect(others.tenant).toBeLessThan(1000);
    },
  );

  it('frees the import slots: after two attack files, the next import runs and succeeds', { timeout: 60_000 }, async () => {
    const client = await freshTenant('slots');
    const attacks = files.filter((file) => ['xlsx-column-zzzz', 'xlsx-shared-strings-12m'].includes(file.name));
    const started = await Promise.all(attacks.map((file) => upload(client, file)));
    for (const item of started) expect((await waitForImportEnd(client, item.body.id)).importDataState).toBe(5);
    const csv = `${CSV_HEADER}\nok,Hello,HTML,Body,en-US\n`;
    const next = await upload(client, { bytes: new TextEncoder().encode(csv), contentType: 'text/csv', fileName: 'ok.csv' });
    expect(next.status, next.text).toBe(202);
    expect(await waitForImportEnd(client, next.body.id)).toMatchObject({ importDataState: 3, rowsCreated: 1 });
  });
});

describe("a file import's own file", () => {
  const csv = { bytes: new TextEncoder().encode(`${CSV_HEADER}\nk1,S,HTML,B,en-US\n`), contentType: 'text/csv', fileName: 'own.csv' };

  it('changeDataImport naming another cloudFileName for a file import is 400 naming it; its own, or a third party import, 200', async () => {
    const client = await freshTenant('own-file');
    const started = await upload(client, csv, '&dryRun=true');
    expect(started.status, started.text).toBe(202);
    const own = started.body.cloudFileName;
    expect(own).toBe(`imports/${client.tenant}/${client.org}/${started.body.id}`);
    const change = (cloudFileName: string | null, importId = started.body.id) =>
      client.call<Problem>('POST', `${IMPORTS}/changeDataImport`, { body: { importId, cloudFileName } });
    const foreign = await change(`imports/${other.tenant}/${other.org}/${crypto.randomUUID()}`);
    expect(foreign.status, foreign.text).toBe(400);
    expect(foreign.body.errors.map((error) => error.path)).toEqual(['cloudFileName']);
    expect((await change(null)).status).toBe(400);
    expect((await change(own)).status).toBe(200);
    const third = await client.call<string>('POST', IMPORTS, { body: { importDataTemplate: 'routes', cloudFileName: 'a.csv' } });
    expect(third.status).toBe(201);
    const thirdChange = await client.call('POST', `${IMPORTS}/changeDataImport`, {
      body: { importId: third.body, importDataState: 2, cloudFileName: 'b.csv' },
    });
    expect(thirdChange.status, thirdChange.text).toBe(200);
    expect((await waitForImportEnd(client, started.body.id)).cloudFileName).toBe(own);
  });

  it('a step refuses any key but its own: the import ends Fatal naming it, what it wrote undone', { timeout: 60_000 }, async () => {
    const client = await freshTenant('key-swap');
    const db = await openClientD1(client);
    // Two file imports Processing (written straight in the table): the next one waits Pending for a slot.
    for (let index = 0; index < 2; index += 1) {
      const registered = await client.call<string>('POST', IMPORTS, { body: { importDataTemplate: 'emailTemplates' } });
      expect(registered.status).toBe(201);
      await db.prepare("UPDATE import_data_infos SET import_data_state = 2, file_format = 'csv' WHERE id = ?").bind(registered.body).run();
    }
    const started = await upload(client, csv);
    expect(started.status, started.text).toBe(202);
    const foreign = `imports/${other.tenant}/${other.org}/${started.body.id}`;
    await db.prepare('UPDATE import_data_infos SET cloud_file_name = ? WHERE id = ?').bind(foreign, started.body.id).run();
    await db
      .prepare(
        "UPDATE import_data_infos SET import_data_state = 4 WHERE tenant_key = ? AND org_key = ? AND id <> ? AND file_format = 'csv'",
      )
      .bind(client.tenant, client.org, started.body.id)
      .run();
    const ended = await waitForImportEnd(client, started.body.id);
    expect(ended.importDataState).toBe(5);
    expect(ended.error).toContain(`The file ${foreign} is not the file stored for this import`);
    expect(ended.rowsCreated).toBe(0);
  });
});
