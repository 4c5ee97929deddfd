/**
 * Real OData clients against the standard service root (`/odata/{tenantKey}/{orgKey}/`) of both runtimes: the Deno
 * server of this test run and `npm start` (the Workers runtime). A typed client is generated from the served
 * `$metadata` by odata2ts (its CLI, as a user runs it) and type-checked, then reads, pages, writes and follows a delta
 * link; a generic client (@odata/client) reads, counts, writes and sends `$batch` in both formats.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { OData } from '@odata/client';
import { SignJWT } from 'jose';
import ts from 'typescript';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DENO_TEST_JWT_SECRET, readDenoServer } from '../deno/server.js';
import { PROJECT_ROOT, startDevServer } from './dev-server.js';
import type { DevServer } from './dev-server.js';

const run = promisify(execFile);
const GENERATED = path.join(PROJECT_ROOT, 'test/tooling/.generated');

interface Target {
  readonly name: string;
  baseUrl: string;
  secret: string;
}

async function mintToken(target: Target, tenant: string, org: string): Promise<string> {
  return new SignJWT({ scope: 'application admin', orgs: [`${tenant}/${org}`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('odata-client')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(target.secret));
}

/**
 * The generator's configuration, as a user of this API writes it: the properties the server manages (computed) are not
 * editable, and the natural keys are the client's to set (odata2ts would otherwise take a single key as server-made).
 */
const GENERATOR_CONFIG = `module.exports = {
  mode: 3, // Modes.all: models, query objects and the service
  emitMode: 'ts',
  disableAutoManagedKey: true,
  services: {
    erp: {
      source: 'metadata.xml',
      output: 'client',
      serviceName: 'Erp',
      propertiesByName: ['id', 'version', 'createdOn', 'createdBy', 'modifiedOn', 'modifiedBy'].map((name) => ({ name, managed: true })),
    },
  },
};
`;

/** The typed use of the generated client: written beside it, type-checked with it, then run. */
const USE = `
import { FetchClient } from '@odata2ts/http-client-fetch';
import { EmailTemplateType } from './client/ErpModel';
import type { EditableEmailTemplate, EmailTemplate } from './client/ErpModel';
import { ErpService } from './client/ErpService';

interface Page<T> {
  value: T[];
  '@odata.count'?: number;
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

export async function run(root: string, token: string) {
  const client = new FetchClient({ headers: { Authorization: 'Bearer ' + token } });
  const service = new ErpService(client, root.replace(/\\/$/, ''));
  const templates = service.emailTemplates();
  const make = (templateKey: string): EditableEmailTemplate => ({
    templateKey,
    subject: 'Hi',
    emailTemplateType: EmailTemplateType.Text,
    notificationBody: 'Hi',
    culture: 'en-US',
    isActive: true,
  });
  const created: EmailTemplate = (await templates.create(make('typed-1'))).data;
  await templates.create(make('typed-2'));
  await templates.create(make('typed-3'));
  await service.emailTemplates('typed-1').patch({ subject: 'Patched' });
  const patched = (await service.emailTemplates({ templateKey: 'typed-1' }).query()).data;

  const track = { headers: { Prefer: 'odata.track-changes, odata.maxpagesize=2' } };
  const first = (
    await templates.query((builder, q) => builder.select('templateKey', 'subject').filter(q.templateKey.startsWith('typed')).count(), track)
  ).data as Page<Pick<EmailTemplate, 'templateKey' | 'subject'>>;
  const second = (await client.get<Page<EmailTemplate>>(first['@odata.nextLink'] ?? '', track)).data;
  await service.emailTemplates('typed-2').patch({ description: 'Changed offline' });
  await service.emailTemplates('typed-3').delete();
  const delta = (await client.get<Page<Record<string, unknown>>>(second['@odata.deltaLink'] ?? '')).data;
  return {
    created,
    firstPage: first.value.map((template) => template.templateKey),
    count: first['@odata.count'],
    rest: second.value.map((template) => template.templateKey),
    patchedSubject: patched.subject,
    delta: {
      changed: delta.value.filter((entry) => !('@removed' in entry)).map((entry) => entry.templateKey),
      removed: delta.value.filter((entry) => '@removed' in entry).map((entry) => entry['@id']),
    },
  };
}
`;

/** Generates the typed client of `metadata` with the odata2ts CLI (in a folder of its own, with its config); answers the folder. */
async function generateClient(name: string, metadata: string): Promise<string> {
  const folder = path.join(GENERATED, name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'metadata.xml'), metadata);
  writeFileSync(path.join(folder, 'odata2ts.config.cjs'), GENERATOR_CONFIG);
  writeFileSync(
    path.join(folder, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext' } }),
  );
  const cli = path.join(PROJECT_ROOT, 'node_modules/@odata2ts/odata2ts/lib/run-cli.js');
  await run(process.execPath, [cli], { cwd: folder });
  writeFileSync(path.join(folder, 'use.ts'), USE);
  return folder;
}

/** Type-checks the generated client and its typed use: a generated type that drifted from the answers fails here. */
function checkGeneratedTypes(folder: string): string[] {
  const files = ['client/ErpModel.ts', 'client/QErp.ts', 'client/ErpService.ts', 'use.ts'].map((file) => path.join(folder, file));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

interface TypedOutcome {
  created: { templateKey: string };
  firstPage: string[];
  count: number | undefined;
  rest: string[];
  patchedSubject: string;
  delta: { changed: unknown[]; removed: unknown[] };
}

const deno: Target = { name: 'deno', baseUrl: '', secret: DENO_TEST_JWT_SECRET };
const workers: Target = { name: 'workers', baseUrl: '', secret: '' };
const targets = [deno, workers];
let devServer: DevServer | undefined;

beforeAll(async () => {
  deno.baseUrl = readDenoServer().baseUrl;
  devServer = await startDevServer('odata-clients');
  workers.baseUrl = devServer.baseUrl;
  workers.secret = /^JWT_SECRET\s*=\s*"?([^"\n]*)"?/m.exec(readFileSync(path.join(PROJECT_ROOT, '.dev.vars'), 'utf8'))?.[1] ?? '';
}, 300_000);

afterAll(() => {
  devServer?.stop();
  rmSync(GENERATED, { recursive: true, force: true });
});

describe.each(targets)('OData clients against $name', (target) => {
  const tenant = `oc${Date.now().toString(36)}${target.name}`;
  let root = '';
  let token = '';

  // Each test on an org of its own.
  beforeEach(async (context) => {
    const org = context.task.name.startsWith('a typed') ? 'typed' : 'generic';
    root = `${target.baseUrl}/odata/${tenant}/${org}/`;
    token = await mintToken(target, tenant, org);
  });

  it('a typed client generated from $metadata type-checks, then reads, pages, writes and follows a delta link', async () => {
    const response = await fetch(`${root}$metadata`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const folder = await generateClient(target.name, await response.text());
    expect(checkGeneratedTypes(folder)).toEqual([]);
    const use = (await import(pathToFileURL(path.join(folder, 'use.ts')).href)) as {
      run: (root: string, token: string) => Promise<TypedOutcome>;
    };
    const outcome = await use.run(root, token);
    expect(outcome.created.templateKey).toBe('typed-1');
    expect(outcome.patchedSubject).toBe('Patched');
    expect(outcome.count).toBe(3);
    expect([...outcome.firstPage, ...outcome.rest].sort()).toEqual(['typed-1', 'typed-2', 'typed-3']);
    expect(outcome.firstPage).toHaveLength(2);
    expect(outcome.delta.changed).toEqual(['typed-2']);
    expect(outcome.delta.removed).toEqual([`${root}emailTemplates('typed-3')`]);
  }, 120_000);

  it('a generic client reads, counts, pages, writes and batches in both formats', async () => {
    const client = OData.New4({ serviceEndpoint: root, variant: 'default', commonHeaders: { authorization: `Bearer ${token}` } });
    const templates = client.getEntitySet<Record<string, unknown>>('emailTemplates');
    const body = (key: string) => ({
      templateKey: key,
      subject: 'Hi',
      emailTemplateType: 'Text',
      notificationBody: 'Hi',
      culture: 'en-US',
    });
    const created = await templates.create(body('generic-1'));
    expect(created.templateKey).toBe('generic-1');
    await templates.create(body('generic-2'));
    expect(await templates.count()).toBe(2);
    const read = await templates.retrieve('generic-1');
    expect(read.subject).toBe('Hi');
    const filtered = await templates.query(
      client.newOptions().filter("startswith(templateKey,'generic')").orderby('templateKey', 'asc').top(1),
    );
    expect(filtered.map((row) => row.templateKey)).toEqual(['generic-1']);
    await templates.update('generic-1', { subject: 'Changed' });
    expect((await templates.retrieve('generic-1')).subject).toBe('Changed');

    const multipart = await Promise.all(
      await client.execBatchRequests([
        client.newBatchRequest({ collection: 'emailTemplates', method: 'POST', entity: body('generic-3') }),
        client.newBatchRequest({ collection: 'emailTemplates', method: 'GET', id: 'generic-2' }),
      ]),
    );
    expect(multipart.map((answer) => answer.status)).toEqual([201, 200]);
    const [, answered] = multipart;
    expect(((await answered?.json()) as { templateKey: string }).templateKey).toBe('generic-2');

    const json = await Promise.all(
      await client.execBatchRequestsJson([
        client.newBatchRequest({
          collection: 'emailTemplates',
          method: 'PATCH',
          id: 'generic-3',
          entity: { description: 'From a JSON batch' },
        }),
        client.newBatchRequest({ collection: 'emailTemplates', method: 'DELETE', id: 'generic-2' }),
      ]),
    );
    expect(json.map((answer) => answer.status)).toEqual([204, 204]);
    expect((await templates.retrieve('generic-3')).description).toBe('From a JSON batch');
    await templates.delete('generic-1');
    expect(await templates.count()).toBe(1);
  }, 120_000);
});
