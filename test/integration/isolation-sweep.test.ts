/**
 * One sweep over every documented /api operation: authentication and scope, and tenant/org isolation. For each
 * operation, in a world of its own (test/helpers/sweep-fixtures.ts):
 * - no token, a token signed with another secret, an expired token, a token without `exp` or living longer than 24
 *   hours: 401 with a Bearer challenge;
 * - a token of another tenant/org on the owner's path: 403; a token without the operation's scope: 403;
 * - the owner's identifiers sent by another tenant and by another org of the same tenant (both with the same reference
 *   data) answer exactly what the owner gets for records that do not exist; sent by an org with nothing, exactly what
 *   the owner gets when the reference keys do not exist either. Lists show the others none of the owner's records.
 *   Operations that take an Idempotency-Key are sent by the others with a key the owner has used: keys are per
 *   tenant/org, so they answer the same (never a replay of the owner's answer, never 422 or 409);
 * - D1 bookmarks (`x-d1-bookmark`): refused requests (401, 403) never carry one, not even when they send the owner's;
 *   the others send the owner's bookmark (it names the owner's tenant database) and still answer exactly as above,
 *   with a bookmark of their own;
 * - the owner's records are unchanged afterwards.
 */
import { describe, expect, it } from 'vitest';
import { call, mintToken } from '../helpers/api';
import type { CallResult, Problem, TenantClient } from '../helpers/api';
import { A as API, ET, EX, EXTENSION_OPERATIONS, IM, IN, LINE, RO, SPEC_OPERATIONS } from '../helpers/spec-operations';
import { callStream } from '../helpers/live';
import { buildSweepWorld, readOwnerState } from '../helpers/sweep-fixtures';
import type { Service, SweepValues, SweepWorld } from '../helpers/sweep-fixtures';
import { freshTenant } from '../helpers/tenants';

interface SweepRequest {
  readonly path: string;
  readonly body?: unknown;
  readonly stream?: boolean;
}

/** How to ask one operation about identifiers `v` (path parameters by name, then the query and body). */
interface OperationCase {
  readonly service: Service;
  /** Path parameters; several entries: the operation is asked once per entry (`/{id}` and `/{key}` share a path). */
  readonly params: (v: SweepValues) => readonly Readonly<Record<string, string | number>>[];
  readonly query?: (v: SweepValues) => Readonly<Record<string, string>>;
  readonly body?: (v: SweepValues) => unknown;
  /** A list: the others must see none of the owner's records. */
  readonly list?: boolean;
  readonly admin?: boolean;
  /** The live stream: sent as Server-Sent Events, read up to `ready` (its replayed items are the list). */
  readonly stream?: boolean;
  /** Reads nothing from D1 (a stream ticket is signed, not stored): its answer carries no bookmark. */
  readonly noDatabase?: boolean;
}

const templateBody = (v: SweepValues) => ({
  templateKey: v.templateKey,
  subject: 's',
  emailTemplateType: 1,
  notificationBody: 'b',
  culture: 'en-US',
});

const ATTRIBUTE_BODIES: Readonly<Record<string, unknown>> = {
  // email templates
  culture: 'pt-PT',
  description: 'Swept',
  emailTemplateType: 2,
  isActive: false,
  notificationBody: 'Swept body',
  subject: 'Swept subject',
  templateKey: 'SWEPT-KEY',
  // routes (optional references cleared: the owner's reference data is not under test here)
  brand: null,
  brandModel: null,
  family: null,
  locationFunction: null,
  responsible: null,
  remarks: 'Swept remarks',
  routeKey: 'SWEPT-ROUTE',
  // exchange rates documents and lines
  exchangeRateType: 2,
  externalId: 'x',
  externalVersion: 'v',
  isExternallyManaged: true,
  number: 7070,
  validFrom: '2026-02-02T00:00:00Z',
  conversionFactor: 2.5,
  fromCurrency: 'GBP',
  toCurrency: 'GBP',
  fromExchangeRateId: null,
  toExchangeRateId: null,
  '{customAttributeName}': { value: 1 },
};

/** The case of an attribute PUT `base/<attribute>`: the attribute's body, the record's path parameters. */
function attributeCase(service: Service, params: OperationCase['params'], attribute: string): OperationCase {
  return {
    service,
    params: (v) =>
      params(v).map((entry) => (attribute === '{customAttributeName}' ? { ...entry, customAttributeName: 'custom_x' } : entry)),
    body: (v) => (attribute === 'company' ? v.company : ATTRIBUTE_BODIES[attribute]),
  };
}

const templateByKey = (v: SweepValues) => [{ templateKey: v.templateKey }];
const routeReplaceBody = (v: SweepValues) => ({ routeKey: v.routeKey, description: 'Swept', company: v.company });
const routeByKey = (v: SweepValues) => [{ companyKey: v.company, routeKey: v.routeKey }];
const documentByNumber = (v: SweepValues) => [{ number: v.number }];
const lineOf = (v: SweepValues) => [{ number: v.number, lineId: v.lineId }];

/** Every /api operation of the document, by `METHOD path` (checked against /openapi.json below). */
function describeCase(operation: string): OperationCase {
  const [method = '', path = ''] = operation.split(' ');
  const attribute = path.split('/').pop() ?? '';
  if (method === 'PUT' && path.startsWith(`${ET}/{templateKey}/`)) return attributeCase('emailTemplates', templateByKey, attribute);
  if (method === 'PUT' && path.startsWith(`${RO}/{companyKey}/{routeKey}/`)) return attributeCase('routes', routeByKey, attribute);
  if (method === 'PUT' && path.startsWith(`${LINE}/{lineId}/`)) return attributeCase('exchangeRates', lineOf, attribute);
  if (method === 'PUT' && path.startsWith(`${EX}/{number}/`)) return attributeCase('exchangeRates', documentByNumber, attribute);
  const membership =
    /^\/api\/\{tenantKey\}\/\{orgKey\}\/assetManagementCore\/routes\/\{routeKey\}\/(locations|equipmentitems)\/(add|addById|remove|removeById)$/.exec(
      path,
    );
  if (membership) {
    const [, kind, verb = ''] = membership;
    const byId = verb.endsWith('ById');
    return {
      service: 'routes',
      params: (v) => [{ routeKey: v.routeKey }],
      body: (v) => (kind === 'locations' ? [byId ? v.locationId : v.location] : [byId ? v.equipmentItemId : v.equipmentItem]),
    };
  }
  const cases: Readonly<Record<string, OperationCase>> = {
    [`GET ${ET}/odata`]: { service: 'emailTemplates', params: () => [{}], list: true },
    [`GET ${ET}/{idOrTemplateKey}`]: {
      service: 'emailTemplates',
      params: (v) => [{ idOrTemplateKey: v.templateId }, { idOrTemplateKey: v.templateKey }],
    },
    [`DELETE ${ET}/{idOrTemplateKey}`]: {
      service: 'emailTemplates',
      params: (v) => [{ idOrTemplateKey: v.templateId }, { idOrTemplateKey: v.templateKey }],
    },
    [`POST ${ET}`]: { service: 'emailTemplates', params: () => [{}], body: templateBody },
    [`POST ${ET}/{templateKey}/render`]: {
      service: 'emailTemplates',
      params: templateByKey,
      body: () => ({ parameters: [{ name: 'x', value: 'y' }] }),
    },
    [`GET ${ET}/{templateKey}/placeholders`]: { service: 'emailTemplates', params: templateByKey },
    [`GET ${IM}/validateImportDataState`]: { service: 'imports', params: () => [{}], query: (v) => ({ id: v.importId }) },
    [`GET ${IM}/getLastImports`]: { service: 'imports', params: () => [{}], query: (v) => ({ templateId: v.importTemplate }) },
    [`POST ${IM}/changeDataImport`]: {
      service: 'imports',
      params: () => [{}],
      body: (v) => ({ importId: v.importId, importDataState: 2 }),
    },
    [`POST ${IM}/revertImportFile`]: { service: 'imports', params: () => [{}], body: (v) => ({ templateKey: v.importTemplate }) },
    [`POST ${IM}`]: { service: 'imports', params: () => [{}], body: (v) => ({ importDataTemplate: v.importTemplate }) },
    [`GET ${IM}/{id}`]: { service: 'imports', params: (v) => [{ id: v.importId }] },
    [`GET ${IM}/{id}/failures`]: { service: 'imports', params: (v) => [{ id: v.importId }] },
    [`POST ${IM}/{id}/cancel`]: { service: 'imports', params: (v) => [{ id: v.importId }] },
    [`POST ${IM}/files`]: {
      service: 'imports',
      params: () => [{}],
      query: () => ({ importDataTemplate: 'companies' }),
      body: () => [{ key: 'SWIMPORT', name: 'Swept', baseCurrency: 'EUR' }],
    },
    [`GET ${IN}/getIndicatorSummaryByCode/{companyKey}/{code}`]: {
      service: 'indicators',
      params: (v) => [{ companyKey: v.kpiCompany, code: v.kpiCode }],
    },
    [`GET ${IN}/kpiChart/{company}/{code}`]: {
      service: 'indicators',
      params: (v) => [{ company: v.kpiCompany, code: v.kpiCode }],
      query: () => ({ referenceDate: '2026-01-31' }),
    },
    [`POST ${IN}/assetsRecalculateKPIs/{workerConfigurationKey}`]: {
      service: 'indicators',
      params: (v) => [{ workerConfigurationKey: v.configuration }],
    },
    [`POST ${IN}/measurements`]: {
      service: 'indicators',
      params: () => [{}],
      body: (v) => [{ company: v.kpiCompany, code: v.kpiCode, date: '2026-02-01', value: 1 }],
    },
    [`GET ${RO}/odata`]: { service: 'routes', params: () => [{}], list: true },
    [`GET ${RO}/{id}`]: { service: 'routes', params: (v) => [{ id: v.routeId }] },
    [`GET ${RO}/{companyKey}/{routeKey}`]: { service: 'routes', params: routeByKey },
    [`GET ${RO}/getMaintenanceNotificationTemplateParameters/{companyKey}/{routeKey}`]: {
      service: 'routes',
      params: routeByKey,
      query: () => ({ cultureKey: 'en-US' }),
    },
    [`POST ${RO}`]: {
      service: 'routes',
      params: () => [{}],
      body: (v) => ({ routeKey: v.routeKey, description: 'd', company: v.company }),
    },
    [`DELETE ${RO}/{id}`]: { service: 'routes', params: (v) => [{ id: v.routeId }] },
    [`DELETE ${RO}/{companyKey}/{routeKey}`]: { service: 'routes', params: routeByKey },
    [`PATCH ${ET}/{idOrTemplateKey}`]: {
      service: 'emailTemplates',
      params: (v) => [{ idOrTemplateKey: v.templateId }, { idOrTemplateKey: v.templateKey }],
      body: () => ({ subject: 'Swept', custom_x: 1 }),
    },
    [`PUT ${ET}/{idOrTemplateKey}`]: {
      service: 'emailTemplates',
      params: (v) => [{ idOrTemplateKey: v.templateId }, { idOrTemplateKey: v.templateKey }],
      body: templateBody,
    },
    [`PATCH ${RO}/{id}`]: { service: 'routes', params: (v) => [{ id: v.routeId }], body: () => ({ description: 'Swept', remarks: null }) },
    [`PUT ${RO}/{id}`]: { service: 'routes', params: (v) => [{ id: v.routeId }], body: routeReplaceBody },
    [`PATCH ${RO}/{companyKey}/{routeKey}`]: { service: 'routes', params: routeByKey, body: () => ({ description: 'Swept' }) },
    [`PUT ${RO}/{companyKey}/{routeKey}`]: { service: 'routes', params: routeByKey, body: routeReplaceBody },
    [`PATCH ${EX}/{idOrNumber}`]: {
      service: 'exchangeRates',
      params: (v) => [{ idOrNumber: v.documentId }, { idOrNumber: v.number }],
      body: () => ({ externalId: 'swept', isActive: false }),
    },
    [`PUT ${EX}/{idOrNumber}`]: {
      service: 'exchangeRates',
      params: (v) => [{ idOrNumber: v.documentId }, { idOrNumber: v.number }],
      body: (v) => ({ number: v.number, validFrom: '2026-03-01', exchangeRateType: 2, isExternallyManaged: true }),
    },
    [`GET ${EX}/odata`]: { service: 'exchangeRates', params: () => [{}], list: true },
    [`GET ${EX}/{idOrNumber}`]: { service: 'exchangeRates', params: (v) => [{ idOrNumber: v.documentId }, { idOrNumber: v.number }] },
    [`DELETE ${EX}/{idOrNumber}`]: { service: 'exchangeRates', params: (v) => [{ idOrNumber: v.documentId }, { idOrNumber: v.number }] },
    [`POST ${EX}`]: {
      service: 'exchangeRates',
      params: () => [{}],
      body: (v) => ({
        number: v.number,
        validFrom: '2026-03-01',
        exchangeRateType: 1,
        isExternallyManaged: false,
        exchangeRateDocumentRates: [{ fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: 0.9 }],
      }),
    },
    [`POST ${LINE}`]: {
      service: 'exchangeRates',
      params: documentByNumber,
      body: () => ({ fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: 0.9 }),
    },
    [`DELETE ${LINE}/{lineId}`]: { service: 'exchangeRates', params: lineOf },
    [`POST ${EX}/getCurrencyExchangeRates`]: {
      service: 'exchangeRates',
      params: () => [{}],
      body: (v) => ({ currencyFromKey: 'EUR', currencyToKey: v.currencyTo, referencedDate: '2026-02-01' }),
    },
    [`POST ${EX}/getCurrencyExchangeRatesByCompany`]: {
      service: 'exchangeRates',
      params: () => [{}],
      body: (v) => ({ currencyKey: v.currencyTo, companyKey: v.company, referencedDate: '2026-02-01' }),
    },
    [`GET ${API}/referenceData/{kind}`]: { service: 'referenceData', params: () => [{ kind: 'companies' }], list: true },
    [`PUT ${API}/referenceData/{kind}`]: {
      service: 'referenceData',
      params: () => [{ kind: 'companies' }],
      body: () => [{ key: 'SWC3', name: 'Sweep three', baseCurrency: 'EUR' }],
      admin: true,
    },
    [`POST ${API}/identity/apiClients`]: { service: 'identity', params: () => [{}], body: () => ({ name: 'Swept client' }), admin: true },
    [`GET ${API}/identity/apiClients`]: { service: 'identity', params: () => [{}], list: true, admin: true },
    [`GET ${API}/identity/apiClients/{clientId}`]: { service: 'identity', params: (v) => [{ clientId: v.clientId }], admin: true },
    [`POST ${API}/identity/apiClients/{clientId}/revoke`]: { service: 'identity', params: (v) => [{ clientId: v.clientId }], admin: true },
    [`POST ${API}/identity/apiClients/{clientId}/secret`]: { service: 'identity', params: (v) => [{ clientId: v.clientId }], admin: true },
    [`DELETE ${API}/identity/apiClients/{clientId}`]: { service: 'identity', params: (v) => [{ clientId: v.clientId }], admin: true },
    [`DELETE ${API}/referenceData/{kind}/{key}`]: {
      service: 'referenceData',
      params: (v) => [{ kind: 'families', key: v.familyKey }],
      admin: true,
    },
    [`GET ${API}/changes`]: { service: 'events', params: () => [{}], list: true },
    // From the feed's first cursor: the replay is the list.
    [`GET ${API}/changes/stream`]: {
      service: 'events',
      params: () => [{}],
      query: () => ({ since: 'c1.c2VxOjA' }),
      list: true,
      stream: true,
    },
    [`POST ${API}/changes/tickets`]: { service: 'events', params: () => [{}], noDatabase: true },
    [`GET ${API}/subscriptions`]: { service: 'events', params: () => [{}], list: true },
    [`POST ${API}/subscriptions`]: {
      service: 'events',
      params: () => [{}],
      body: (v) => ({ notificationUrl: v.notificationUrl, resource: '*' }),
      admin: true,
    },
    [`GET ${API}/subscriptions/{id}`]: { service: 'events', params: (v) => [{ id: v.subscriptionId }] },
    [`DELETE ${API}/subscriptions/{id}`]: { service: 'events', params: (v) => [{ id: v.subscriptionId }], admin: true },
    [`POST ${API}/subscriptions/{id}/renew`]: { service: 'events', params: (v) => [{ id: v.subscriptionId }], admin: true },
    [`GET ${API}/subscriptions/{id}/deliveries`]: { service: 'events', params: (v) => [{ id: v.subscriptionId }] },
    // Inner requests name the owner's records by id and key: the others' inner answers are those of records that do not exist.
    [`POST ${API}/$batch`]: {
      service: 'emailTemplates',
      params: () => [{}],
      body: (v) => ({
        requests: [
          { id: 'byId', method: 'GET', url: `operations/emailTemplates/${v.templateId}` },
          { id: 'byKey', method: 'GET', url: `operations/emailTemplates/${encodeURIComponent(v.templateKey)}` },
          { id: 'rename', method: 'PUT', url: `operations/emailTemplates/${encodeURIComponent(v.templateKey)}/subject`, body: 'Swept' },
          { id: 'delete', method: 'DELETE', url: `operations/emailTemplates/${v.templateId}` },
        ],
      }),
    },
  };
  const found = cases[operation];
  if (!found) throw new Error(`No sweep case for ${operation}: add one.`);
  return found;
}

const OPERATIONS = [...new Set([...SPEC_OPERATIONS, ...EXTENSION_OPERATIONS])].filter((operation) => operation.includes(API)).sort();

/** The requests of an operation for the identifiers `v`, on `client`'s path. */
function buildRequests(operation: string, spec: OperationCase, client: TenantClient, v: SweepValues): SweepRequest[] {
  const [, template = ''] = operation.split(' ');
  const query = spec.query ? `?${new URLSearchParams(spec.query(v)).toString()}` : '';
  return spec.params(v).map((params) => {
    const path = template
      .replace(API, client.base)
      .replace(/\{([^}]+)\}/g, (whole, name: string) => (name in params ? encodeURIComponent(String(params[name])) : whole));
    return { path: `${path}${query}`, ...(spec.body ? { body: spec.body(v) } : {}), ...(spec.stream ? { stream: true } : {}) };
  });
}

function send(method: string, request: SweepRequest, token: string | null, headers: Record<string, string> = {}): Promise<CallResult> {
  if (request.stream) return callStream(request.path, token, headers);
  return call(method, request.path, { token, headers, ...(request.body === undefined ? {} : { body: request.body }) });
}

let documented: Promise<Record<string, Record<string, { parameters?: { $ref?: string }[] }>>> | undefined;

/** True when the document lists an Idempotency-Key parameter for the operation (`METHOD path`). */
async function takesIdempotencyKey(operation: string): Promise<boolean> {
  documented ??= call<{ paths: Record<string, Record<string, { parameters?: { $ref?: string }[] }>> }>('GET', '/openapi.json').then(
    (result) => result.body.paths,
  );
  const [method = '', path = ''] = operation.split(' ');
  const parameters = (await documented)[path]?.[method.toLowerCase()]?.parameters ?? [];
  return parameters.some((parameter) => parameter.$ref === '#/components/parameters/idempotencyKey');
}

/** What must be equal between two answers: the status, a problem's code and field paths, a success's non-text values. */
function summarize(result: CallResult): unknown {
  const contentType = result.headers.get('content-type') ?? '';
  if (contentType.includes('problem+json')) {
    const problem = result.body as Problem;
    return { status: result.status, code: problem.code, paths: problem.errors.map((error) => error.path).sort() };
  }
  const shape = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(shape);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shape(item)]));
    return typeof value === 'string' ? 'text' : value;
  };
  // A new record's id and a Location differ by nature; whether something was created (201, or a file import accepted:
  // 202, whose key is the next of the org) is the status.
  return { status: result.status, body: result.status === 201 || result.status === 202 ? 'created' : shape(result.body) };
}

async function checkAuth(method: string, spec: OperationCase, world: SweepWorld, request: SweepRequest): Promise<void> {
  const { owner } = world;
  const orgs = [`${owner.tenant}/${owner.org}`];
  // Refused requests send the owner's bookmark: none may come back.
  const bookmarked = { 'x-d1-bookmark': world.bookmark };
  const unauthorized = [
    await send(method, request, null, bookmarked),
    await send(method, request, await mintToken({ orgs, secret: 'another-secret-of-at-least-32-characters!' }), bookmarked),
    await send(method, request, await mintToken({ orgs, expiresIn: '-1m' }), bookmarked),
    await send(method, request, await mintToken({ orgs, expiresIn: null }), bookmarked),
    await send(method, request, await mintToken({ orgs, expiresIn: '25h' }), bookmarked),
  ];
  for (const result of unauthorized) {
    expect(result.status, `${method} ${request.path}: ${result.text}`).toBe(401);
    expect((result.body as Problem).code).toBe('Unauthorized');
    expect(result.headers.get('www-authenticate')).toContain('Bearer');
    expect(result.headers.has('x-d1-bookmark'), `${method} ${request.path}: 401 with a bookmark`).toBe(false);
  }
  expect(unauthorized[2]?.headers.get('www-authenticate')).toContain('invalid_token');
  const stranger = await send(method, request, world.bare.token, bookmarked);
  expect([stranger.status, (stranger.body as Problem).code], `${method} ${request.path} with another org's token`).toEqual([
    403,
    'Forbidden',
  ]);
  const lacking = await send(method, request, await mintToken({ orgs, scope: spec.admin ? 'application' : 'profile' }), bookmarked);
  expect([lacking.status, (lacking.body as Problem).code], `${method} ${request.path} without its scope`).toEqual([403, 'Forbidden']);
  for (const refused of [stranger, lacking]) {
    expect(refused.headers.has('x-d1-bookmark'), `${method} ${request.path}: 403 with a bookmark`).toBe(false);
  }
}

/** The owner's record ids in a list answer. */
function listIds(result: CallResult): string[] {
  const body = result.body as { items?: { id?: unknown }[] };
  return (body.items ?? []).flatMap((item) => (typeof item.id === 'string' ? [item.id] : []));
}

async function checkIsolation(method: string, operation: string, spec: OperationCase, world: SweepWorld): Promise<void> {
  const { owner, twins, bare } = world;
  if (spec.list) {
    const [mine] = buildRequests(operation, spec, owner, world.values);
    const ownerIds = mine ? listIds(await send(method, mine, owner.token)) : [];
    expect(ownerIds.length, `${operation}: the owner lists its records`).toBeGreaterThan(0);
    for (const other of [...twins, bare]) {
      for (const request of buildRequests(operation, spec, other, world.values)) {
        const theirs = await send(method, request, other.token, { 'x-d1-bookmark': world.bookmark });
        expect(theirs.status).toBe(200);
        expect(
          listIds(theirs).filter((id) => ownerIds.includes(id)),
          `${operation} as ${other.base}`,
        ).toEqual([]);
        if (spec.service !== 'referenceData') expect(listIds(theirs), `${operation} as ${other.base}`).toEqual([]);
      }
    }
    return;
  }
  // The others send the owner's Idempotency-Key where the operation takes one (it is not theirs), and its bookmark.
  const keyed: Record<string, string> = {
    'x-d1-bookmark': world.bookmark,
    ...((await takesIdempotencyKey(operation)) ? { 'idempotency-key': world.idempotencyKey } : {}),
  };
  const compare = async (others: readonly TenantClient[], absent: SweepValues) => {
    const expected = await Promise.all(
      buildRequests(operation, spec, owner, absent).map(async (request) => summarize(await send(method, request, owner.token))),
    );
    for (const other of others) {
      const requests = buildRequests(operation, spec, other, world.values);
      for (const [index, request] of requests.entries()) {
        const answer = await send(method, request, other.token, keyed);
        expect(answer.headers.get('idempotent-replayed'), `${method} ${request.path} replayed another org's answer`).toBeNull();
        if (!spec.noDatabase)
          expect(answer.headers.get('x-d1-bookmark') ?? '', `${method} ${request.path}: a bookmark of the caller's answer`).toMatch(
            /^TENANT_DB_\w+:/,
          );
        const actual = summarize(answer);
        expect(actual, `${method} ${request.path} as another org answers as for a record that does not exist`).toEqual(expected[index]);
      }
    }
  };
  await compare(twins, world.missingRecords);
  await compare([bare], world.missingAll);
}

describe('the auth and isolation sweep', () => {
  it('covers every documented /api operation, and the Idempotency-Key of every POST that changes', async () => {
    const document = await call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    const documented = Object.entries(document.body.paths).flatMap(([path, item]) =>
      ['get', 'put', 'patch', 'post', 'delete'].filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(OPERATIONS).toEqual(documented.filter((operation) => operation.includes(API)).sort());
    for (const operation of OPERATIONS) expect(() => describeCase(operation)).not.toThrow();
    const keyed: string[] = [];
    for (const operation of OPERATIONS) if (await takesIdempotencyKey(operation)) keyed.push(operation);
    const lookups = [
      `POST ${EX}/getCurrencyExchangeRates`,
      `POST ${EX}/getCurrencyExchangeRatesByCompany`,
      `POST ${ET}/{templateKey}/render`,
    ];
    // The file upload streams its body (no Idempotency-Key: its fingerprint would read the whole file first); a stream
    // ticket is signed, not stored: asking again gives another, so there is nothing to replay.
    const streamed = [`POST ${IM}/files`, `POST ${API}/changes/tickets`];
    expect(keyed).toEqual(
      OPERATIONS.filter((operation) => operation.startsWith('POST ') && !lookups.includes(operation) && !streamed.includes(operation)),
    );
  });

  it.each(OPERATIONS)('%s', async (operation) => {
    const [method = ''] = operation.split(' ');
    const spec = describeCase(operation);
    const world = await buildSweepWorld(spec.service);
    const before = await readOwnerState(world, spec.service);
    for (const request of buildRequests(operation, spec, world.owner, world.values)) await checkAuth(method, spec, world, request);
    await checkIsolation(method, operation, spec, world);
    expect(await readOwnerState(world, spec.service), 'the owner’s records are unchanged').toEqual(before);
  });
});

describe('addresses and wildcards', () => {
  it('honours orgs wildcards, and refuses an org outside them with 403', async () => {
    const client = await freshTenant('wild');
    const token = await mintToken({ orgs: [`${client.tenant}/*`] });
    expect((await call('GET', `/api/${client.tenant}/anything/operations/emailTemplates/odata`, { token })).status).toBe(200);
    const forbidden = await call<Problem>('GET', `/api/${client.tenant}x/main/operations/emailTemplates/odata`, { token });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'Forbidden']);
  });

  it('answers 400 naming a malformed tenant segment', async () => {
    const token = await mintToken({ orgs: ['*'] });
    const result = await call<Problem>('GET', '/api/-bad!/main/operations/emailTemplates/odata', { token });
    expect(result.status).toBe(400);
    expect(result.body.errors[0]?.path).toBe('tenantKey');
  });
});
