/**
 * Every `$batch` example of docs/api-reference.md, sent as documented on the demo data (the seed of `npm start`, applied
 * through the API), twice: each answers the statuses the docs give, the second time as the first (an example leaves
 * the data as it found it). A refused atomic group names its cause, whatever the order of its requests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import apiReference from '../../docs/api-reference.md?raw';
import { applySeedModule } from '../../scripts/seed/apply.mjs';
import { seedModules } from '../../scripts/seed/index.mjs';
import { tenantClient } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import type { BatchAnswer, BatchEntry } from '../helpers/batch';
import { sendBatch } from '../helpers/batch';
import { readBatchExamples } from '../helpers/doc-examples';
import { uniqueKey } from '../helpers/tenants';

/**
 * The statuses each example answers, in the order of the docs (the prose under each example says them), and whether
 * it needs the `admin` scope (reference data, API clients: the docs say so above those examples).
 */
const DOCUMENTED: readonly { readonly statuses: readonly number[]; readonly admin?: boolean }[] = [
  { statuses: [201, 200, 200, 204] },
  { statuses: [400, 424] },
  { statuses: [201, 200, 204] },
  { statuses: [201, 200, 200, 200, 204] },
  { statuses: [424, 400, 424] },
  { statuses: [200, 200, 201, 200, 200, 200, 204], admin: true },
  { statuses: [424, 400], admin: true },
];

let client: TenantClient;
let admin: TenantClient;

beforeAll(async () => {
  const [tenant, org] = [uniqueKey('docs'), uniqueKey('o')];
  // The README's token: scope `application`; the seed writes reference data too (`admin`).
  client = await tenantClient(tenant, org, 'application');
  admin = await tenantClient(tenant, org, 'application admin');
  for (const module of seedModules)
    await applySeedModule(module, async (method, path, body) => {
      const result = await admin.call(method, path, body === undefined ? {} : { body });
      return { status: result.status, text: result.text };
    });
}, 120_000);

const statusesOf = (responses: readonly BatchAnswer[]) => responses.map((response) => response.status);

describe('the $batch examples of docs/api-reference.md', () => {
  it('each answers as documented on the demo data, and the same when sent again', async () => {
    const examples = readBatchExamples(apiReference);
    expect(examples.map((example) => example.line).length, 'an example without its statuses here').toBe(DOCUMENTED.length);
    for (const [index, example] of examples.entries()) {
      for (const attempt of [1, 2]) {
        const documented = DOCUMENTED[index];
        const answer = await sendBatch(documented?.admin ? admin : client, example.body.requests as unknown as BatchEntry[]);
        const where = `docs/api-reference.md:${example.line}, sent ${attempt === 1 ? 'once' : 'again'}`;
        expect(answer.status, where).toBe(200);
        expect(statusesOf(answer.body.responses), `${where}: ${JSON.stringify(answer.body.responses)}`).toEqual(documented?.statuses);
      }
    }
  }, 120_000);
});

describe('a refused atomic group names its cause', () => {
  const route = (routeKey: string, company = 'ACME-PT'): BatchEntry => ({
    id: 'create',
    method: 'POST',
    url: 'assetManagementCore/routes',
    atomicityGroup: 'g',
    body: { routeKey, description: 'Weekly round', company, tools: ['TOOL-LADDER'] },
  });
  const others = (routeKey: string): BatchEntry[] => [
    {
      id: 'add',
      method: 'POST',
      url: `assetManagementCore/routes/${routeKey}/locations/add?companyKey=ACME-PT`,
      atomicityGroup: 'g',
      body: ['LOC-LIS-ROOF'],
    },
    { id: 'shift', method: 'PUT', url: `assetManagementCore/routes/ACME-PT/${routeKey}/custom_shift`, atomicityGroup: 'g', body: 'night' },
    {
      id: 'tpl',
      method: 'POST',
      url: 'operations/emailTemplates',
      atomicityGroup: 'g',
      body: { templateKey: uniqueKey('tpl'), subject: 'Hi', emailTemplateType: 2, notificationBody: 'Hi', culture: 'en-US' },
    },
  ];

  it('a duplicate create answers its own DuplicateKey, at any place in the group, and every other request 424', async () => {
    const routeKey = uniqueKey('R');
    const first = await sendBatch(admin, [route(routeKey), ...others(routeKey)]);
    expect(statusesOf(first.body.responses), JSON.stringify(first.body.responses)).toEqual([201, 200, 200, 201]);
    const rest = others(routeKey);
    // The duplicate create first, in the middle, last (a request after it that reads the route by key sees two).
    const orders: BatchEntry[][] = [
      [route(routeKey), ...rest],
      [rest[2] as BatchEntry, route(routeKey), rest[0] as BatchEntry, rest[1] as BatchEntry],
      [rest[2] as BatchEntry, rest[1] as BatchEntry, route(routeKey)],
      [route(routeKey), rest[0] as BatchEntry],
    ];
    for (const order of orders) {
      const answer = await sendBatch(admin, order);
      const responses = answer.body.responses;
      const where = `${order.map((entry) => entry.id).join(', ')}: ${JSON.stringify(responses)}`;
      for (const response of responses) {
        if (response.id === 'create') {
          expect(response.status, where).toBe(400);
          expect((response.body as Problem).code, where).toBe('DuplicateKey');
        } else expect(response.status, where).toBe(424);
      }
    }
    // Nothing of the refused groups was written: the route has the one location and tool of the first batch.
    const stored = await client.call<{ locations: { key: string }[]; version: number }>(
      'GET',
      `/assetManagementCore/routes/ACME-PT/${routeKey}`,
    );
    expect([stored.body.locations.map((location) => location.key), stored.body.version]).toEqual([['LOC-LIS-ROOF'], 3]);
  }, 60_000);
});
