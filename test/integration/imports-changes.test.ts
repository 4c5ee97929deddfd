import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { changeImport, readHistory, readImport, registerImport, registerImportIn } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

const NAMES: Record<number, string> = { 1: 'Pending', 2: 'Processing', 3: 'Succeeded', 4: 'Failed', 5: 'Fatal' };

/** The import transitions (docs/api-reference.md, Import data infos), written out: [from, to, expected]. */
const TRANSITIONS: [number, number, 'apply' | 'noop' | 'refuse'][] = [
  [1, 1, 'refuse'],
  [1, 2, 'apply'],
  [1, 3, 'refuse'],
  [1, 4, 'apply'],
  [1, 5, 'apply'],
  [2, 1, 'refuse'],
  [2, 2, 'apply'],
  [2, 3, 'apply'],
  [2, 4, 'apply'],
  [2, 5, 'apply'],
  [3, 1, 'refuse'],
  [3, 2, 'refuse'],
  [3, 3, 'noop'],
  [3, 4, 'refuse'],
  [3, 5, 'refuse'],
  [4, 1, 'refuse'],
  [4, 2, 'refuse'],
  [4, 3, 'refuse'],
  [4, 4, 'noop'],
  [4, 5, 'refuse'],
  [5, 1, 'refuse'],
  [5, 2, 'refuse'],
  [5, 3, 'refuse'],
  [5, 4, 'refuse'],
  [5, 5, 'noop'],
];

let client: TenantClient;
let other: TenantClient;

beforeEach(async () => {
  client = await freshTenant('acme');
  other = await freshTenant('globex');
});

describe('changeDataImport transitions', () => {
  it.each(TRANSITIONS)('%s -> %s: %s', async (from, to, expected) => {
    const id = await registerImportIn(client, from);
    const before = await readImport(client, id);
    const result = await changeImport(client, { importId: id, importDataState: to, detailLog: `to ${to}` });
    const after = await readImport(client, id);
    const history = await readHistory(client, id);
    if (expected === 'refuse') {
      const problem = result.body as Problem;
      expect(result.status).toBe(400);
      expect(problem.code).toBe('InvalidStateTransition');
      expect(problem.detail).toBe(`An import in state ${NAMES[from]} (${from}) cannot change to ${NAMES[to]} (${to})`);
      expect(problem.errors[0]?.path).toBe('importDataState');
      expect(after).toEqual(before);
    } else if (expected === 'noop') {
      expect(result.status, result.text).toBe(200);
      expect(after).toEqual(before);
    } else {
      expect(result.status, result.text).toBe(200);
      expect(result.text).toBe('');
      expect(after.importDataState).toBe(to);
      expect(after.detailLog).toBe(`to ${to}`);
      expect(after.version).toBe(before.version + 1);
      expect(after.lastProgressUpdateOn).toBe(after.modifiedOn);
      expect(after.lastProgressUpdateOn && after.lastProgressUpdateOn >= before.modifiedOn).toBe(true);
      expect(history.at(-1)).toMatchObject({ seq: after.version, kind: 'change', fromState: from, toState: to });
    }
    expect(history.map((entry) => entry.seq)).toEqual(history.map((_, index) => index + 1));
  });
});

describe('changeDataImport input', () => {
  it('accepts the state by name, case-insensitively, and answers numbers', async () => {
    const id = await registerImport(client);
    expect((await changeImport(client, { importId: id, importDataState: 'processing' })).status).toBe(200);
    expect((await changeImport(client, { importId: id, importDataState: 'Succeeded' })).status).toBe(200);
    expect((await readImport(client, id)).importDataState).toBe(3);
  });

  it('sets the text fields that are sent, clears them with null, keeps the others', async () => {
    const id = await registerImport(client, { cloudFileName: 'blob/1.csv' });
    const first = await changeImport(client, {
      importId: id,
      importDataState: 2,
      detailLog: 'row 10',
      error: 'warn',
      drillDownOperation: 'open',
    });
    expect(first.status, first.text).toBe(200);
    expect(await readImport(client, id)).toMatchObject({
      cloudFileName: 'blob/1.csv',
      detailLog: 'row 10',
      error: 'warn',
      drillDownOperation: 'open',
    });
    expect((await changeImport(client, { importId: id, cloudFileName: 'blob/2.csv', error: null })).status).toBe(200);
    expect(await readImport(client, id)).toMatchObject({
      importDataState: 2,
      cloudFileName: 'blob/2.csv',
      detailLog: 'row 10',
      error: null,
    });
  });

  it('treats a change without importDataState as the current state (progress while Processing)', async () => {
    const id = await registerImportIn(client, 2);
    expect((await changeImport(client, { importId: id, detailLog: 'half way' })).status).toBe(200);
    expect((await readImport(client, id)).detailLog).toBe('half way');
    const pending = await registerImport(client);
    const refused = await changeImport(client, { importId: pending, detailLog: 'x' });
    expect((refused.body as Problem).code).toBe('InvalidStateTransition');
  });

  it('accepts tenant and subscription equal to the path, refuses others naming each', async () => {
    const id = await registerImport(client);
    const ok = await changeImport(client, { importId: id, tenant: client.tenant, subscription: client.org, importDataState: 2 });
    expect(ok.status, ok.text).toBe(200);
    const wrong = await changeImport(client, { importId: id, tenant: 'globex', subscription: 'other', importDataState: 3 });
    expect(wrong.status).toBe(400);
    expect((wrong.body as Problem).code).toBe('ValidationFailed');
    expect((wrong.body as Problem).errors.map((error) => error.path).sort()).toEqual(['subscription', 'tenant']);
    expect((await readImport(client, id)).importDataState).toBe(2);
  });

  it('names every invalid field at once', async () => {
    const result = await changeImport(client, { importId: 'not-a-guid', importDataState: 9, detailLog: 5, bogus: true });
    expect(result.status).toBe(400);
    const problem = result.body as Problem;
    expect(problem.code).toBe('ValidationFailed');
    expect(problem.errors.map((error) => error.path).sort()).toEqual(['bogus', 'detailLog', 'importDataState', 'importId']);
    const missing = await changeImport(client, { importDataState: 2 });
    expect((missing.body as Problem).errors.map((error) => error.path)).toEqual(['importId']);
    const notObject = await client.call<Problem>('POST', '/corePatterns/importDataInfos/changeDataImport', { body: [1] });
    expect(notObject.status).toBe(400);
  });

  it('answers 404 for an unknown import', async () => {
    const result = await changeImport(client, { importId: crypto.randomUUID(), importDataState: 2 });
    expect(result.status).toBe(404);
    expect((result.body as Problem).code).toBe('RecordNotFound');
  });

  it("answers 404 for another org's import and changes nothing", async () => {
    const id = await registerImport(client);
    const result = await changeImport(other, { importId: id, importDataState: 2 });
    expect(result.status).toBe(404);
    expect((result.body as Problem).code).toBe('RecordNotFound');
    expect((await readImport(client, id)).importDataState).toBe(1);
  });
});
