/**
 * The world of the auth and isolation sweep (test/integration/isolation-sweep.test.ts): an owner org with one record of
 * each service, the same reference data in a twin of another tenant and in a twin org of the owner's tenant, and a
 * bare org with nothing. Identifiers come in three sets: the owner's, the owner's with every record identifier
 * replaced by one that does not exist, and with every reference key replaced too.
 */
import { expect } from 'vitest';
import type { TenantClient } from './api';
import { createDocument } from './exchange-rates';
import { freshTenant, siblingOrg, uniqueKey } from './tenants';
import { tenantClient } from './api';
import { receiverUrl, subscribe } from './webhooks';

export type Service = 'emailTemplates' | 'routes' | 'imports' | 'indicators' | 'exchangeRates' | 'referenceData' | 'identity' | 'events';

/** The identifiers a request is built from. */
export interface SweepValues {
  readonly templateId: string;
  readonly templateKey: string;
  readonly routeId: string;
  readonly routeKey: string;
  readonly company: string;
  readonly location: string;
  readonly locationId: string;
  readonly equipmentItem: string;
  readonly equipmentItemId: string;
  readonly number: number;
  readonly documentId: string;
  readonly lineId: string;
  readonly currencyTo: string;
  readonly importId: string;
  readonly importTemplate: string;
  readonly kpiCompany: string;
  readonly kpiCode: string;
  readonly configuration: string;
  readonly familyKey: string;
  readonly clientId: string;
  readonly subscriptionId: string;
  /** A webhook receiver URL that passes the handshake. */
  readonly notificationUrl: string;
}

export interface SweepWorld {
  readonly owner: TenantClient;
  /** Other tenant and other org of the owner's tenant: the same reference data, none of the owner's records. */
  readonly twins: readonly TenantClient[];
  /** An org with nothing at all. */
  readonly bare: TenantClient;
  readonly values: SweepValues;
  /** The owner's identifiers with each record replaced by one that does not exist (reference keys kept). */
  readonly missingRecords: SweepValues;
  /** The owner's identifiers with records and reference keys replaced. */
  readonly missingAll: SweepValues;
  /** An Idempotency-Key the owner has used (its answer is kept for replays): keys are per tenant/org. */
  readonly idempotencyKey: string;
  /** An `x-d1-bookmark` answered to the owner (it names the owner's tenant database): others may send it too. */
  readonly bookmark: string;
}

const REFERENCE_DATA: Readonly<Record<Service, Readonly<Record<string, unknown[]>>>> = {
  emailTemplates: {},
  imports: {},
  identity: {},
  routes: {
    companies: [{ key: 'SWC1', name: 'Sweep one', baseCurrency: 'EUR' }],
    locations: [{ key: 'SWL1', description: 'Sweep location', company: 'SWC1' }],
    equipmentItems: [{ key: 'SWQ1', description: 'Sweep item', company: 'SWC1' }],
    tools: [{ key: 'SWT1', description: 'Sweep tool' }],
  },
  exchangeRates: { companies: [{ key: 'SWC1', name: 'Sweep one', baseCurrency: 'EUR' }] },
  indicators: {
    companies: [
      { key: 'SWC1', name: 'Sweep one', baseCurrency: 'EUR' },
      { key: 'SWC2', name: 'Sweep two', baseCurrency: 'EUR' },
    ],
    kpiDefinitions: [{ key: 'SWK1', name: 'Sweep KPI', valueType: 'Number', valueFractionDigits: 0, aggregation: 'sum' }],
    workerConfigurations: [{ key: 'SWW1', companies: [], codes: [] }],
  },
  referenceData: { companies: [{ key: 'SWC1', name: 'Sweep one', baseCurrency: 'EUR' }] },
  events: {},
};

async function expectStatus(result: Promise<{ status: number; text: string }>, status: number): Promise<void> {
  const answer = await result;
  expect(answer.status, answer.text).toBe(status);
}

async function seedReferenceData(client: TenantClient, service: Service): Promise<void> {
  for (const [kind, records] of Object.entries(REFERENCE_DATA[service])) {
    await expectStatus(client.call('PUT', `/referenceData/${kind}`, { body: records }), 200);
  }
}

async function findReferenceId(client: TenantClient, kind: string, key: string): Promise<string> {
  const list = await client.call<{ items: { id: string; key: string }[] }>('GET', `/referenceData/${kind}`);
  return list.body.items.find((item) => item.key === key)?.id ?? '';
}

/** The owner's records of the service, and their identifiers. */
async function seedRecords(owner: TenantClient, service: Service): Promise<Partial<SweepValues>> {
  switch (service) {
    case 'emailTemplates': {
      const created = await owner.call<string>('POST', '/operations/emailTemplates', {
        body: { templateKey: 'SWT', subject: 'Sweep', emailTemplateType: 1, notificationBody: 'b', culture: 'en-US', custom_x: 1 },
      });
      expect(created.status, created.text).toBe(201);
      return { templateId: created.body };
    }
    case 'routes': {
      const created = await owner.call<string>('POST', '/assetManagementCore/routes', {
        body: { routeKey: 'SWR', description: 'Sweep route', company: 'SWC1', tools: 'SWT1' },
      });
      expect(created.status, created.text).toBe(201);
      await expectStatus(owner.call('POST', '/assetManagementCore/routes/SWR/locations/add', { body: ['SWL1'] }), 200);
      return {
        routeId: created.body,
        locationId: await findReferenceId(owner, 'locations', 'SWL1'),
        equipmentItemId: await findReferenceId(owner, 'equipmentItems', 'SWQ1'),
      };
    }
    case 'exchangeRates': {
      const documentId = await createDocument(owner, 707, '2026-01-01', [['EUR', 'USD', '1.1']]);
      const read = await owner.call<{ exchangeRateDocumentRates: { id: string }[] }>('GET', `/businessCore/exchangeRatesDocuments/707`);
      return { documentId, lineId: read.body.exchangeRateDocumentRates[0]?.id ?? '' };
    }
    case 'imports': {
      const registered = await owner.call<string>('POST', '/corePatterns/importDataInfos', { body: { importDataTemplate: 'SWIMP' } });
      expect(registered.status, registered.text).toBe(201);
      return { importId: registered.body };
    }
    case 'indicators': {
      await expectStatus(
        owner.call('POST', '/maintenance/indicators/measurements', {
          body: [{ company: 'SWC1', code: 'SWK1', date: '2026-01-10', value: 5 }],
        }),
        200,
      );
      await expectStatus(owner.call('POST', '/maintenance/indicators/assetsRecalculateKPIs/SWW1'), 200);
      return {};
    }
    case 'identity': {
      const created = await owner.call<{ clientId: string }>('POST', '/identity/apiClients', { body: { name: 'Sweep client' } });
      expect(created.status, created.text).toBe(201);
      return { clientId: created.body.clientId };
    }
    case 'events': {
      // The owner's change feed has the template's event; its subscription has a delivery.
      const subscription = await subscribe(owner, receiverUrl('sweep'));
      const created = await owner.call<string>('POST', '/operations/emailTemplates', {
        body: { templateKey: 'SWE', subject: 'Sweep', emailTemplateType: 1, notificationBody: 'b', culture: 'en-US' },
      });
      expect(created.status, created.text).toBe(201);
      return { subscriptionId: subscription.id };
    }
    case 'referenceData': {
      // A record only the owner has (twins have the same companies, not this family).
      await expectStatus(owner.call('PUT', '/referenceData/families', { body: [{ key: 'SWF1', description: 'Sweep family' }] }), 200);
      return {};
    }
  }
}

const ABSENT_ID = () => crypto.randomUUID();

/** The owner creates one more email template with an Idempotency-Key; a retry is replayed. Answers the key. */
/** An Idempotency-Key the owner used (its answer replayed once), and the D1 bookmark the first answer carried. */
async function useIdempotencyKey(owner: TenantClient): Promise<{ key: string; bookmark: string }> {
  const key = uniqueKey('sweep-key');
  const send = () =>
    owner.call('POST', '/operations/emailTemplates', {
      headers: { 'idempotency-key': key },
      body: { templateKey: 'SWIDEM', subject: 'Sweep', emailTemplateType: 1, notificationBody: 'b', culture: 'en-US' },
    });
  const first = await send();
  expect(first.status, first.text).toBe(201);
  const bookmark = first.headers.get('x-d1-bookmark');
  expect(bookmark, 'a write answers the bookmark of its tenant database').toMatch(/^TENANT_DB_\w+:/);
  const retried = await send();
  expect([retried.status, retried.headers.get('idempotent-replayed')], retried.text).toEqual([201, 'true']);
  return { key, bookmark: bookmark ?? '' };
}

/** Builds the world for an operation of `service`: every org fresh, so no test sees another's records. */
export async function buildSweepWorld(service: Service): Promise<SweepWorld> {
  const owner = await freshTenant('sweep');
  const twins = [await tenantClient(uniqueKey('twin'), owner.org), await siblingOrg(owner)];
  const bare = await freshTenant('bare');
  for (const client of [owner, ...twins]) await seedReferenceData(client, service);
  const seeded = await seedRecords(owner, service);
  const { key: idempotencyKey, bookmark } = await useIdempotencyKey(owner);
  const values: SweepValues = {
    templateId: ABSENT_ID(),
    templateKey: 'SWT',
    routeId: ABSENT_ID(),
    routeKey: 'SWR',
    company: 'SWC1',
    location: 'SWL1',
    locationId: ABSENT_ID(),
    equipmentItem: 'SWQ1',
    equipmentItemId: ABSENT_ID(),
    number: 707,
    documentId: ABSENT_ID(),
    lineId: ABSENT_ID(),
    currencyTo: 'USD',
    importId: ABSENT_ID(),
    importTemplate: 'SWIMP',
    kpiCompany: 'SWC1',
    kpiCode: 'SWK1',
    configuration: 'SWW1',
    familyKey: 'SWF1',
    clientId: `${owner.tenant}~${owner.org}~${'0'.repeat(24)}`,
    subscriptionId: ABSENT_ID(),
    notificationUrl: receiverUrl('sweep'),
    ...seeded,
  };
  const missingRecords: SweepValues = {
    ...values,
    templateId: ABSENT_ID(),
    templateKey: 'NOPE-T',
    routeId: ABSENT_ID(),
    routeKey: 'NOPE-R',
    number: 708,
    documentId: ABSENT_ID(),
    lineId: ABSENT_ID(),
    currencyTo: 'CHF',
    importId: ABSENT_ID(),
    importTemplate: 'NOPE-IMP',
    kpiCompany: 'SWC2',
    familyKey: 'NOPE-F',
    clientId: `${owner.tenant}~${owner.org}~${'f'.repeat(24)}`,
    subscriptionId: ABSENT_ID(),
  };
  // Fresh record keys again: a create of the first set may have made records with those.
  const missingAll: SweepValues = {
    ...missingRecords,
    templateKey: 'NOPE-T2',
    routeKey: 'NOPE-R2',
    number: 709,
    importTemplate: 'NOPE-IMP2',
    company: 'NOPE-C',
    location: 'NOPE-L',
    equipmentItem: 'NOPE-Q',
    kpiCompany: 'NOPE-C',
    kpiCode: 'NOPE-K',
    configuration: 'NOPE-W',
  };
  return { owner, twins, bare, values, missingRecords, missingAll, idempotencyKey, bookmark };
}

/** What the owner has of the service, read back: an operation sent by anyone else must leave it as it was. */
export async function readOwnerState(world: SweepWorld, service: Service): Promise<unknown> {
  const { owner, values } = world;
  const read = async (path: string) => {
    const result = await owner.call('GET', path);
    return { status: result.status, body: result.body };
  };
  switch (service) {
    case 'emailTemplates':
      return read(`/operations/emailTemplates/${values.templateId}`);
    case 'routes':
      return read(`/assetManagementCore/routes/${values.routeId}`);
    case 'exchangeRates':
      return read(`/businessCore/exchangeRatesDocuments/${values.number}`);
    case 'imports':
      return read(`/corePatterns/importDataInfos/${values.importId}`);
    case 'indicators':
      return read(`/maintenance/indicators/getIndicatorSummaryByCode/SWC1/SWK1`);
    case 'identity':
      return read(`/identity/apiClients/${values.clientId}`);
    case 'events':
      return [await read('/changes'), await read(`/subscriptions/${values.subscriptionId}`)];
    case 'referenceData': {
      // The owner's own upserts (of records it did not have) may add companies; its SWC1 and SWF1 must stay.
      const [companies, families] = [await read('/referenceData/companies'), await read('/referenceData/families')];
      const own = (result: { body: unknown }, key: string) =>
        (result.body as { items: { key: string }[] }).items.filter((item) => item.key === key);
      return [own(companies, 'SWC1'), own(families, 'SWF1')];
    }
  }
}
