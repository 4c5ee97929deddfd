/** File imports: the upload (POST /corePatterns/importDataInfos/files): stored, checked on its first bytes, registered Pending. */
import { beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { IMPORTS, readImport } from '../helpers/imports';
import type { ImportResource } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('acme');
});

interface FileImport extends ImportResource {
  fileFormat: string | null;
  mode: string | null;
  dryRun: boolean | null;
  failOnErrors: boolean | null;
  rowsRead: number | null;
  rowsCreated: number | null;
  rowsUpdated: number | null;
  rowsFailed: number | null;
}

function upload(query: string, body: string | Uint8Array, headers: Record<string, string>) {
  return client.call<FileImport & Problem>('POST', `${IMPORTS}/files?${query}`, { rawBody: body, headers });
}

const ROUTES_CSV = 'routeKey;Description;COMPANY;locations;custom_colour\nR1;"First; route\nwith two lines";C1;L1|L2;red\n';

describe('upload', () => {
  it('answers 202 with the Pending import, its stored file and a Location that reads it', async () => {
    const result = await upload('importDataTemplate=routes&mode=upsert&dryRun=true', ROUTES_CSV, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="rotas março.csv"',
    });
    expect(result.status, result.text).toBe(202);
    expect(result.body).toMatchObject({
      importDataTemplate: 'routes',
      importDataState: 1,
      originalFileName: 'rotas março.csv',
      fileFormat: 'csv',
      mode: 'upsert',
      dryRun: true,
      failOnErrors: false,
      rowsRead: 0,
      rowsCreated: 0,
      rowsUpdated: 0,
      rowsFailed: 0,
      reverted: false,
    });
    expect(result.body.cloudFileName).toBe(`imports/${client.tenant}/${client.org}/${result.body.id}`);
    expect(result.headers.get('location')).toBe(`${ORIGIN}${client.base}${IMPORTS}/${result.body.id}`);
    // Its processing starts at once (the state may already have moved on): the Location reads the same import.
    expect(await readImport(client, result.body.id)).toMatchObject({
      id: result.body.id,
      key: result.body.key,
      cloudFileName: result.body.cloudFileName,
      originalFileName: 'rotas março.csv',
    });
  });

  it('takes NDJSON, JSON arrays and .xlsx; third-party imports show no file fields', async () => {
    const ndjson = await upload('importDataTemplate=companies', '{"key":"C1","name":"One","baseCurrency":"EUR"}\n', {
      'content-type': 'application/x-ndjson',
    });
    expect(ndjson.status, ndjson.text).toBe(202);
    const json = await upload('importDataTemplate=kpiMeasurements', '[{"company":"C1","code":"K1","date":"2026-01-01","value":1}]', {
      'content-type': 'application/json',
    });
    expect(json.status, json.text).toBe(202);
    expect(json.body.fileFormat).toBe('json');
    const xlsx = await upload('importDataTemplate=emailTemplates', new Uint8Array([0x50, 0x4b, 0x03, 0x04]), {
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename=templates.xlsx',
    });
    expect(xlsx.status, xlsx.text).toBe(202);
    expect(xlsx.body.fileFormat).toBe('xlsx');
    const registered = await client.call<string>('POST', IMPORTS, { body: { importDataTemplate: 'other' } });
    expect(await readImport(client, registered.body)).toMatchObject({ fileFormat: null, mode: null, rowsRead: null });
  });

  it('refuses an unknown template, mode or flag (400 naming each) and a type it does not take (415)', async () => {
    const bad = await upload('importDataTemplate=customers&mode=merge&dryRun=maybe', ROUTES_CSV, { 'content-type': 'text/csv' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error) => error.path)).toEqual(['importDataTemplate', 'mode', 'dryRun']);
    const missing = await upload('mode=create', ROUTES_CSV, { 'content-type': 'text/csv' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error) => error.path)).toEqual(['importDataTemplate']);
    const plain = await upload('importDataTemplate=routes', ROUTES_CSV, { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
  });

  it('checks the header row on the first bytes: unknown, repeated and missing required columns are a 400 naming each', async () => {
    const result = await upload('importDataTemplate=routes', 'routeKey,bogus,ROUTEKEY\nR1,x,y\n', { 'content-type': 'text/csv' });
    expect(result.status).toBe(400);
    expect(result.body.errors.map((error) => error.path)).toEqual(['bogus', 'ROUTEKEY', 'description', 'company']);
    const spanish = await client.call<Problem>('POST', `${IMPORTS}/files?importDataTemplate=routes`, {
      rawBody: 'routeKey,bogus\n',
      headers: { 'content-type': 'text/csv', 'accept-language': 'es-ES' },
    });
    expect(spanish.body.errors[0]?.message).toContain('no es una columna de la plantilla routes');
    const json = await upload('importDataTemplate=companies', '[{"key":"C1","name":"One","baseCurrency":"EUR","colour":"red"}]', {
      'content-type': 'application/json',
    });
    expect(json.status).toBe(400);
    expect(json.body.errors.map((error) => error.path)).toEqual(['colour']);
  });

  it('refuses a file that is not UTF-8, not the declared JSON layout, or empty (400 naming the file)', async () => {
    const latin1 = await upload('importDataTemplate=companies', new Uint8Array([0x6b, 0x65, 0x79, 0x0a, 0xe7, 0x0a]), {
      'content-type': 'text/csv',
    });
    expect(latin1.status).toBe(400);
    expect(latin1.body.errors).toEqual([{ path: 'file', message: expect.stringContaining('UTF-8') }]);
    const object = await upload('importDataTemplate=companies', '{"key":"C1"}', { 'content-type': 'application/json' });
    expect(object.status).toBe(400);
    expect(object.body.errors.map((error) => error.path)).toEqual(['file']);
    const empty = await upload('importDataTemplate=companies', '', { 'content-type': 'text/csv' });
    expect(empty.status).toBe(400);
  });
});
