/**
 * Fuzz test (issue 13): every operation of the OpenAPI document gets mutated bodies (those that take none get hostile
 * query values and path segments), fast-check with a fixed seed and a bounded number of runs per operation. No
 * answer may be a 5xx, every 400 is problem+json naming at least one field, and every answer is the documented one
 * (`call()` checks status, media type, headers and body against the document).
 */
import { SELF } from 'cloudflare:test';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CallOptions, Problem, TenantClient } from '../helpers/api';
import { createDocument } from '../helpers/exchange-rates';
import type { LineResource } from '../helpers/exchange-rates';
import { HOSTILE_STRINGS, listRawBodies, mutatedBody, pathSegment, queryValue, replaceLeaves, sampleSchema } from '../helpers/fuzz';
import type { Components, FuzzBody } from '../helpers/fuzz';
import { registerImport } from '../helpers/imports';
import { kpiReferenceData } from '../helpers/indicators';
import { createRoute, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

const SEED = 13;
/** Random requests per operation, after its fixed examples (every hostile string in every field, every raw body). */
const RUNS_PER_OPERATION = 12;

type Json = Record<string, unknown>;

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operation: Json;
}

let client: TenantClient;
let operations: Operation[] = [];
let components: Components = {};
const known: Record<string, string> = {
  idOrTemplateKey: 'tpl',
  templateKey: 'tpl',
  routeKey: 'R1',
  code: 'COST',
  workerConfigurationKey: 'default',
  number: '1',
  idOrNumber: '1',
  kind: 'tools',
  key: 'T1',
  customAttributeName: 'custom_fuzz',
};

beforeEach(async () => {
  client = await freshTenant('fuzz');
  await seedRouteReferenceData(client);
  await kpiReferenceData(client);
  const template = { templateKey: 'tpl', subject: 's', emailTemplateType: 1, notificationBody: 'b', culture: 'en-US' };
  expect((await client.call('POST', '/operations/emailTemplates', { body: template })).status).toBe(201);
  known.routeId = await createRoute(client);
  await createDocument(client, 1, '2026-01-01', [['EUR', 'USD', '1.1']]);
  const document = await client.call<{ exchangeRateDocumentRates: LineResource[] }>('GET', '/businessCore/exchangeRatesDocuments/1');
  known.lineId = document.body.exchangeRateDocumentRates[0]?.id ?? '';
  known.importId = await registerImport(client);
  const response = await SELF.fetch('https://api.test/openapi.json');
  const openapi = (await response.json()) as { paths: Record<string, Record<string, Json>>; components: Components };
  components = openapi.components;
  operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
});

/** The known value of a path parameter in this operation's path (ids depend on the resource). */
function knownValue(path: string, name: string): string {
  if (name === 'tenantKey') return client.tenant;
  if (name === 'orgKey') return client.org;
  if (name === 'id') return path.includes('importDataInfos') ? (known.importId ?? '') : (known.routeId ?? '');
  if (name === 'company' || name === 'companyKey') return path.includes('/indicators/') ? 'ACME-PT' : 'C1';
  return known[name] ?? 'x';
}

interface FuzzRequest {
  readonly url: string;
  readonly body?: FuzzBody;
  readonly idempotencyKey?: string;
}

function readBodySchema(op: Operation): Json | undefined {
  const content = (op.operation.requestBody as Json | undefined)?.content as Json | undefined;
  return (content?.['application/json'] as Json | undefined)?.schema as Json | undefined;
}

function readQueryParameters(op: Operation): Json[] {
  return ((op.operation.parameters ?? []) as Json[]).filter((parameter) => parameter.in === 'query');
}

function buildUrl(op: Operation, segments: readonly string[], query: readonly (readonly [string, string | undefined])[]): string {
  let index = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => segments[index++] ?? '');
  const search = new URLSearchParams();
  for (const [name, value] of query) if (value !== undefined) search.set(name, value);
  return `${path}${search.size > 0 ? `?${search.toString()}` : ''}`;
}

/**
 * The fixed requests of an operation: each hostile string in every query value, and in every body leaf (of a full and
 * of a required-only sample), then each raw body.
 */
function listExamples(op: Operation): [FuzzRequest][] {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const segments = names.map((name) =>
    op.method === 'DELETE' && !['tenantKey', 'orgKey'].includes(name) ? 'missing-record' : knownValue(op.path, name),
  );
  const parameters = readQueryParameters(op);
  const schema = readBodySchema(op);
  const samples = schema ? [sampleSchema(schema, components), sampleSchema(schema, components, 0, true)] : [{}];
  const withBody = op.method !== 'GET';
  const query = (text: string) => parameters.map((parameter) => [String(parameter.name), text] as const);
  const hostile = HOSTILE_STRINGS.flatMap((text): [FuzzRequest][] => [
    // In the query string (the body, if any, valid), then in the body alone (the query might mask it).
    ...(parameters.length > 0 || !withBody
      ? [[{ url: buildUrl(op, segments, query(text)), ...(withBody ? { body: { json: samples[0] } } : {}) }] as [FuzzRequest]]
      : []),
    ...(withBody
      ? samples.map((sample): [FuzzRequest] => [{ url: buildUrl(op, segments, []), body: { json: replaceLeaves(sample, text) } }])
      : []),
  ]);
  const raw = withBody ? listRawBodies().map((body): [FuzzRequest] => [{ url: buildUrl(op, segments, []), body }]) : [];
  const unique = new Map([...hostile, ...raw].map((example) => [JSON.stringify(example), example]));
  return [...unique.values()];
}

function requestArbitrary(op: Operation): fc.Arbitrary<FuzzRequest> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  // Deletes get hostile segments only, so the records every other operation needs stay in place.
  const segments = names.map((name) =>
    ['tenantKey', 'orgKey'].includes(name)
      ? fc.constant(knownValue(op.path, name))
      : op.method === 'DELETE'
        ? pathSegment('missing-record').filter((segment) => segment !== 'missing-record')
        : pathSegment(knownValue(op.path, name)),
  );
  const query = readQueryParameters(op).map((parameter) =>
    queryValue(String(sampleSchema((parameter.schema ?? {}) as Json, components))).map((value) => [String(parameter.name), value] as const),
  );
  const bodySchema = readBodySchema(op);
  const body: fc.Arbitrary<FuzzBody | undefined> =
    op.method === 'GET' ? fc.constant(undefined) : mutatedBody(bodySchema ? sampleSchema(bodySchema, components) : {});
  const idempotencyKey = fc.option(fc.constantFrom('fuzz-1', 'fuzz-2', '"quoted key"', 'a"b'), { nil: undefined });
  return fc.record({ segments: fc.tuple(...segments), query: fc.tuple(...query), body, idempotencyKey }).map((parts) => ({
    url: buildUrl(op, parts.segments, parts.query),
    ...(parts.body ? { body: parts.body } : {}),
    ...(parts.idempotencyKey ? { idempotencyKey: parts.idempotencyKey } : {}),
  }));
}

function callOptions(request: FuzzRequest): CallOptions {
  const headers: Record<string, string> = request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {};
  if (!request.body) return { headers };
  if ('json' in request.body) return { headers, body: request.body.json };
  return { headers: { ...headers, 'content-type': 'application/json' }, rawBody: request.body.raw };
}

describe('fuzzing every operation of the OpenAPI document', () => {
  // Every operation of the document in one test (they are read from /openapi.json in beforeAll): about 80 operations,
  // 45-50 s on a quiet 2-core machine, over 60 s on a loaded one.
  it('never answers 5xx, names a field in every 400, and answers only what is documented', { timeout: 180_000 }, async () => {
    expect(operations.length).toBeGreaterThan(70);
    for (const op of operations) {
      const examples = listExamples(op);
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op), async (request) => {
          const result = await client.call(op.method, request.url.replace(client.base, ''), callOptions(request));
          const where = `${op.method} ${request.url} -> ${result.status} ${result.text.slice(0, 300)}`;
          expect(result.status, where).toBeLessThan(500);
          if (result.status === 400) {
            expect(result.headers.get('content-type'), where).toMatch(/^application\/problem\+json/);
            const problem = result.body as Problem;
            expect(problem.errors.length, where).toBeGreaterThan(0);
            for (const error of problem.errors) {
              expect(typeof error.path, where).toBe('string');
              expect(error.message.length, where).toBeGreaterThan(0);
            }
          }
        }),
        { seed: SEED, numRuns: examples.length + RUNS_PER_OPERATION, examples, endOnFailure: true },
      );
    }
  });
});
