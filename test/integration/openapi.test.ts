import { describe, expect, it } from 'vitest';
import { publicRoutes } from '../../src/health';
import { buildApp } from '../../src/http/app';
import { listDocumentedOperations } from '../../src/openapi/operations';
import { apiRoutes } from '../../src/services/registry';
import { call } from '../helpers/api';
import { assertDocumentedResponse } from '../helpers/contract';
import { EXTENSION_OPERATIONS, SPEC_OPERATIONS } from '../helpers/spec-operations';
import { freshTenant } from '../helpers/tenants';

interface Document {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; security: Record<string, string[]>[]; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, { type: string; scheme: string }> };
}

const METHODS = ['get', 'put', 'patch', 'post', 'delete'];

async function readDocument(): Promise<Document> {
  const result = await call<Document>('GET', '/openapi.json');
  expect(result.status).toBe(200);
  return result.body;
}

function listOperations(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** A concrete URL path for a documented path template. */
function concretize(path: string): string {
  const samples: Record<string, string> = {
    idOrNumber: '7',
    number: '7',
    customAttributeName: 'custom_color',
    kind: 'companies',
    tenantKey: 'acme',
    orgKey: 'main',
  };
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => samples[name] ?? `${name}-1`);
}

describe('GET /openapi.json', () => {
  it('serves an OpenAPI 3.1 document without a token, with this origin as server', async () => {
    const document = await readDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('ERP Edge API');
    expect(document.servers).toEqual([{ url: 'https://api.test' }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('documents every specified operation (70) and every extension, and nothing else', async () => {
    expect(SPEC_OPERATIONS).toHaveLength(70);
    const documented = listOperations(await readDocument());
    expect(documented.sort()).toEqual([...new Set([...SPEC_OPERATIONS, ...EXTENSION_OPERATIONS])].sort());
  });

  it('says both meanings of a shared path', async () => {
    const document = await readDocument();
    const read = document.paths['/api/{tenantKey}/{orgKey}/operations/emailTemplates/{idOrTemplateKey}']?.get as unknown as {
      parameters: { name?: string; description?: string }[];
    };
    const parameter = read.parameters.find((item) => item.name === 'idOrTemplateKey');
    expect(parameter?.description).toMatch(/by id or by templateKey/);
  });

  it('names enum members and requires the bearer token with its scope on /api operations', async () => {
    const document = await readDocument();
    expect(document.components.schemas.EmailTemplateType).toMatchObject({
      type: 'integer',
      enum: [1, 2],
      'x-enum-varnames': ['HTML', 'Text'],
    });
    expect(document.components.schemas.ImportDataState).toMatchObject({
      enum: [1, 2, 3, 4, 5],
      'x-enum-varnames': ['Pending', 'Processing', 'Succeeded', 'Failed', 'Fatal'],
    });
    expect(document.components.schemas.ExchangeRateType).toMatchObject({
      enum: [1, 2, 3],
      'x-enum-varnames': ['Market', 'Organization', 'User'],
    });
    expect(document.paths['/api/{tenantKey}/{orgKey}/referenceData/{kind}']?.put?.security).toEqual([{ bearerAuth: ['admin'] }]);
    expect(document.paths['/health']?.get?.security).toEqual([]);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation || !path.startsWith('/api/')) continue;
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['400', '401', '403', '500']));
      }
    }
  });
});

describe('document and router agree', () => {
  const app = buildApp(publicRoutes, apiRoutes);
  const operations = listDocumentedOperations(publicRoutes, apiRoutes);

  it('documents every route the router knows', async () => {
    const documented = new Set(listOperations(await readDocument()));
    for (const route of app.routes) {
      const own = operations.filter((operation) => operation.method === route.method && operation.routePath === route.path);
      expect(own.length, `${route.method} ${route.path}`).toBeGreaterThan(0);
      for (const operation of own)
        expect(documented.has(`${operation.method} ${operation.path}`), `${operation.method} ${operation.path}`).toBe(true);
    }
  });

  it('routes every documented operation to the route it documents', async () => {
    const document = await readDocument();
    for (const entry of listOperations(document)) {
      const [method = '', path = ''] = entry.split(' ');
      const operationId = document.paths[path]?.[method.toLowerCase()]?.operationId;
      const source = operations.find((operation) => operation.doc.operationId === operationId);
      const concrete = concretize(path);
      const routed = app.routes.find((route) => route.method === method && route.match.test(concrete));
      expect(routed?.path, `${entry} (${concrete})`).toBe(source?.routePath);
    }
  });
});

describe('the response contract check of call()', () => {
  const headers = (type: string) => new Headers({ 'content-type': type, etag: '"1"' });
  const path = 'https://api.test/api/acme/main/operations/emailTemplates/welcome';

  it('accepts a documented answer', async () => {
    const problem = {
      type: 'https://errors.erp-edge-api.dev/NotFound',
      title: 'Not found',
      status: 404,
      detail: 'x',
      code: 'RecordNotFound',
      errors: [],
      instance: '/x',
      requestId: 'r',
    };
    await expect(
      assertDocumentedResponse('GET', path, 404, headers('application/problem+json'), JSON.stringify(problem)),
    ).resolves.toBeUndefined();
  });

  it('refuses an undocumented status, a wrong media type and a body off its schema', async () => {
    await expect(assertDocumentedResponse('GET', path, 409, headers('application/problem+json'), '{}')).rejects.toThrow(
      /status 409 is not documented/,
    );
    await expect(assertDocumentedResponse('GET', path, 200, headers('text/plain'), '{}')).rejects.toThrow(/content type text\/plain/);
    await expect(
      assertDocumentedResponse('GET', path, 200, headers('application/json'), JSON.stringify({ id: 'not-a-guid', extra: 1 })),
    ).rejects.toThrow(/does not match/);
    await expect(assertDocumentedResponse('PUT', `${path}/subject`, 200, headers('application/json'), '"x"')).rejects.toThrow(
      /without a body/,
    );
  });

  it('checks real answers of a tenant: another org sees 404, documented as such', async () => {
    const client = await freshTenant('acme');
    const other = await freshTenant('globex');
    const created = await client.call<string>('POST', '/operations/emailTemplates', {
      body: {
        templateKey: 'contract',
        subject: 's',
        emailTemplateType: 'Text',
        notificationBody: 'b',
        culture: 'en-US',
        custom_channel: 'mail',
      },
    });
    expect(created.status).toBe(201);
    expect((await client.call('GET', `/operations/emailTemplates/${created.body}`)).status).toBe(200);
    expect((await other.call('GET', `/operations/emailTemplates/${created.body}`)).status).toBe(404);
  });
});
