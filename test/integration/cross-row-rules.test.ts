/**
 * Rules that span rows hold under concurrency (issue 13, H1/H2): each pair of conflicting requests is raced 50 times
 * (both sent at once); every answer is a success or the documented 400, never a 5xx, and the invariant holds on the
 * final state. The database enforces the rules inside the write's own batch (migration 0006); the pre-checks only
 * word the answer.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { CallResult, Problem, TenantClient } from '../helpers/api';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

const RACES = 50;
const TIMEOUT = 120_000;

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('rules');
  await seedRouteReferenceData(client);
});

interface RouteState {
  company: string;
  brand: string | null;
  brandModel: string | null;
  locations: { key: string }[];
  equipmentItems: { key: string }[];
  [name: string]: unknown;
}

async function readRoute(company: string, routeKey: string): Promise<RouteState> {
  const result = await client.call<RouteState>('GET', `${ROUTES}/${company}/${routeKey}`);
  expect(result.status, result.text).toBe(200);
  return result.body;
}

async function putReference(kind: string, records: Record<string, unknown>[]): Promise<void> {
  const result = await client.call('PUT', `/referenceData/${kind}`, { body: records });
  expect(result.status, result.text).toBe(200);
}

/** Every answer is a 2xx or a 400 with one of `codes`; never a 5xx. */
function expectSettled(results: readonly CallResult[], codes: readonly string[]): void {
  for (const result of results) {
    if (result.status < 300) continue;
    expect(result.status, result.text).toBe(400);
    expect(codes, result.text).toContain((result.body as Problem).code);
  }
}

function ok(result: CallResult): boolean {
  return result.status >= 200 && result.status < 300;
}

describe('H1: a route never holds a member of another company', () => {
  it(
    'races locations/add and PUT company 50 times',
    async () => {
      for (let race = 0; race < RACES; race += 1) {
        const routeKey = `H1-${race}`;
        await createRoute(client, { routeKey });
        const kind = race % 2 === 0 ? 'locations' : 'equipmentitems';
        const member = race % 2 === 0 ? 'L1' : 'Q1';
        const results = await Promise.all([
          client.call('POST', `${ROUTES}/${routeKey}/${kind}/add?companyKey=C1`, { body: [member] }),
          client.call('PUT', `${ROUTES}/C1/${routeKey}/company`, { body: 'C2' }),
        ]);
        expectSettled(results, ['ValidationFailed', 'RecordNotFound']);
        const company = results[1]?.status === 200 ? 'C2' : 'C1';
        const route = await readRoute(company, routeKey);
        const members = [...route.locations, ...route.equipmentItems];
        if (route.company === 'C2') expect(members, `race ${race}`).toEqual([]);
        else expect(members.map((item) => item.key)).toEqual(ok(results[0] as CallResult) ? [member] : []);
      }
    },
    TIMEOUT,
  );

  it(
    'races a location upsert to another company with locations/add 50 times',
    async () => {
      await createRoute(client, { routeKey: 'H1U' });
      await putReference(
        'locations',
        Array.from({ length: RACES }, (_, race) => ({ key: `LU${race}`, description: 'moving', company: 'C1' })),
      );
      for (let race = 0; race < RACES; race += 1) {
        const results = await Promise.all([
          client.call('POST', `${ROUTES}/H1U/locations/add`, { body: [`LU${race}`] }),
          client.call('PUT', '/referenceData/locations', { body: [{ key: `LU${race}`, description: 'moved', company: 'C2' }] }),
        ]);
        expectSettled(results, ['ValidationFailed', 'ReferenceInUse']);
        expect(results.filter(ok), `race ${race}: ${results.map((result) => result.text).join(' / ')}`).toHaveLength(1);
      }
      const route = await readRoute('C1', 'H1U');
      const locations = await client.call<{ items: { key: string; company: string }[] }>('GET', '/referenceData/locations');
      const companyOf = new Map(locations.body.items.map((item) => [item.key, item.company]));
      for (const member of route.locations) expect(companyOf.get(member.key), member.key).toBe('C1');
    },
    TIMEOUT,
  );
});

describe('H2: a route brand model always belongs to the route brand', () => {
  it(
    'races PUT brand and PUT brandModel 50 times',
    async () => {
      for (let race = 0; race < RACES; race += 1) {
        const routeKey = `H2-${race}`;
        await createRoute(client, { routeKey, brand: 'B1' });
        const results = await Promise.all([
          client.call('PUT', `${ROUTES}/C1/${routeKey}/brand`, { body: 'B2' }),
          client.call('PUT', `${ROUTES}/C1/${routeKey}/brandModel`, { body: 'M1' }),
        ]);
        expectSettled(results, ['ValidationFailed']);
        const route = await readRoute('C1', routeKey);
        if (route.brandModel !== null)
          expect({ brand: route.brand, brandModel: route.brandModel }, `race ${race}`).toEqual({ brand: 'B1', brandModel: 'M1' });
      }
    },
    TIMEOUT,
  );

  it(
    'races a brand model upsert to another brand with PUT brandModel 50 times',
    async () => {
      await createRoute(client, { routeKey: 'H2U', brand: 'B1' });
      await putReference(
        'brandModels',
        Array.from({ length: RACES }, (_, race) => ({ key: `MU${race}`, description: 'model', brand: 'B1' })),
      );
      for (let race = 0; race < RACES; race += 1) {
        const results = await Promise.all([
          client.call('PUT', `${ROUTES}/C1/H2U/brandModel`, { body: `MU${race}` }),
          client.call('PUT', '/referenceData/brandModels', { body: [{ key: `MU${race}`, description: 'model', brand: 'B2' }] }),
        ]);
        expectSettled(results, ['ValidationFailed', 'ReferenceInUse']);
        expect(results.filter(ok), `race ${race}: ${results.map((result) => result.text).join(' / ')}`).toHaveLength(1);
      }
      const route = await readRoute('C1', 'H2U');
      const models = await client.call<{ items: { key: string; brand: string }[] }>('GET', '/referenceData/brandModels');
      expect(models.body.items.find((item) => item.key === route.brandModel)?.brand).toBe('B1');
    },
    TIMEOUT,
  );
});

/** A reference kind, the records a race deletes (one per race) and the request that uses one. */
interface InUseCase {
  readonly name: string;
  readonly kind: string;
  record(race: number): Record<string, unknown>;
  prepare?(): Promise<void>;
  use(key: string, race: number): Promise<CallResult>;
}

const IN_USE_CASES: readonly InUseCase[] = [
  {
    name: 'a location added to a route',
    kind: 'locations',
    record: (race) => ({ key: `LX${race}`, description: 'x', company: 'C1' }),
    prepare: async () => void (await createRoute(client, { routeKey: 'RX' })),
    use: (key) => client.call('POST', `${ROUTES}/RX/locations/add`, { body: [key] }),
  },
  {
    name: 'an equipment item added to a route',
    kind: 'equipmentItems',
    record: (race) => ({ key: `QX${race}`, description: 'x', company: 'C1' }),
    prepare: async () => void (await createRoute(client, { routeKey: 'RX' })),
    use: (key) => client.call('POST', `${ROUTES}/RX/equipmentitems/add`, { body: [key] }),
  },
  {
    name: 'a tool of a route created',
    kind: 'tools',
    record: (race) => ({ key: `TX${race}`, description: 'x' }),
    use: (key, race) => client.call('POST', ROUTES, { body: { routeKey: `RT${race}`, description: 'd', company: 'C1', tools: [key] } }),
  },
  {
    name: 'the company of a route created',
    kind: 'companies',
    record: (race) => ({ key: `CX${race}`, name: 'x', baseCurrency: 'EUR' }),
    use: (key, race) => client.call('POST', ROUTES, { body: { routeKey: `RC${race}`, description: 'd', company: key } }),
  },
  {
    name: 'the company of a location upserted',
    kind: 'companies',
    record: (race) => ({ key: `CL${race}`, name: 'x', baseCurrency: 'EUR' }),
    use: (key, race) => client.call('PUT', '/referenceData/locations', { body: [{ key: `LC${race}`, description: 'x', company: key }] }),
  },
  {
    name: 'a company listed by a worker configuration',
    kind: 'companies',
    record: (race) => ({ key: `CW${race}`, name: 'x', baseCurrency: 'EUR' }),
    use: (key, race) => client.call('PUT', '/referenceData/workerConfigurations', { body: [{ key: `W${race}`, companies: [key] }] }),
  },
  {
    name: 'a KPI definition measured',
    kind: 'kpiDefinitions',
    record: (race) => ({ key: `KX${race}`, name: 'x', valueType: 'Number', valueFractionDigits: 0, aggregation: 'sum' }),
    use: (key) =>
      client.call('POST', '/maintenance/indicators/measurements', { body: [{ company: 'C1', code: key, date: '2026-01-01', value: 1 }] }),
  },
  {
    name: 'the brand of a brand model upserted',
    kind: 'brands',
    record: (race) => ({ key: `BX${race}`, description: 'x' }),
    use: (key, race) => client.call('PUT', '/referenceData/brandModels', { body: [{ key: `MB${race}`, description: 'x', brand: key }] }),
  },
  ...(
    [
      ['brandModels', 'brandModel', (race: number) => ({ key: `MX${race}`, description: 'x', brand: 'B1' })],
      ['employees', 'responsible', (race: number) => ({ key: `EX${race}`, name: 'x' })],
      ['families', 'family', (race: number) => ({ key: `FX${race}`, description: 'x' })],
      ['locationFunctions', 'locationFunction', (race: number) => ({ key: `FL${race}`, description: 'x' })],
    ] as const
  ).map(([kind, attribute, record]): InUseCase => ({
    name: `a route's ${attribute} PUT`,
    kind,
    record,
    prepare: async () => void (await createRoute(client, { routeKey: 'RA', brand: 'B1' })),
    use: (key) => client.call('PUT', `${ROUTES}/C1/RA/${attribute}`, { body: key }),
  })),
];

describe('a reference record in use is never deleted (delete raced with a new use)', () => {
  it.each(IN_USE_CASES.map((entry) => [entry.name, entry] as const))(
    '%s',
    async (_name, entry) => {
      await entry.prepare?.();
      const keys = Array.from({ length: RACES }, (_, race) => String(entry.record(race).key));
      await putReference(
        entry.kind,
        keys.map((_, race) => entry.record(race)),
      );
      for (let race = 0; race < RACES; race += 1) {
        const key = keys[race] ?? '';
        const results = await Promise.all([entry.use(key, race), client.call('DELETE', `/referenceData/${entry.kind}/${key}`)]);
        expectSettled(results, ['UnknownReference', 'ReferenceInUse']);
        // The use first: the delete is refused; the delete first: the use is refused.
        expect(results.filter(ok), `race ${race}: ${results.map((result) => `${result.status} ${result.text}`).join(' / ')}`).toHaveLength(
          1,
        );
      }
    },
    TIMEOUT,
  );
});

describe('natural keys stay unique under concurrent creates', () => {
  it(
    'races two creates of the same key 50 times (email templates, routes, exchange rates documents)',
    async () => {
      for (let race = 0; race < RACES; race += 1) {
        const creates: [string, Record<string, unknown>][] = [
          [
            '/operations/emailTemplates',
            { templateKey: `K${race}`, subject: 's', emailTemplateType: 1, notificationBody: 'b', culture: 'en-US' },
          ],
          [ROUTES, { routeKey: `U${race}`, description: 'd', company: 'C1' }],
          [
            '/businessCore/exchangeRatesDocuments',
            {
              number: race + 1,
              validFrom: '2026-01-01T00:00:00Z',
              exchangeRateType: 1,
              isExternallyManaged: false,
              exchangeRateDocumentRates: [],
            },
          ],
        ];
        for (const [path, body] of creates) {
          const results = await Promise.all([client.call('POST', path, { body }), client.call('POST', path, { body })]);
          expectSettled(results, ['DuplicateKey']);
          expect(results.map((result) => result.status).sort(), `${path} race ${race}`).toEqual([201, 400]);
        }
      }
    },
    TIMEOUT,
  );
});

describe('custom attributes written with a membership change are merged, never overwritten', () => {
  it(
    'races locations/add with customAttributes and PUT custom_<name> 50 times',
    async () => {
      await createRoute(client, { routeKey: 'CA' });
      for (let race = 0; race < RACES; race += 1) {
        const action = race % 2 === 0 ? 'add' : 'remove';
        const results = await Promise.all([
          client.call('POST', `${ROUTES}/CA/locations/${action}`, {
            body: { value: ['L1'], customAttributes: { custom_fromMembers: race } },
          }),
          client.call('PUT', `${ROUTES}/C1/CA/custom_fromPut`, { body: race }),
        ]);
        expect(results.map((result) => result.status)).toEqual([200, 200]);
        const route = await readRoute('C1', 'CA');
        expect({ members: route.custom_fromMembers, put: route.custom_fromPut }, `race ${race}`).toEqual({ members: race, put: race });
      }
    },
    TIMEOUT,
  );
});
