/**
 * PATCH and PUT of records with related lists (route members, rate lines) and their deep inserts: the routes' rules on
 * the record as the update leaves it, related lists accepted as read and refused when changed, a route created with
 * its members and a document with its lines in one transaction (nothing written when a rule refuses).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { readAllChanges } from '../helpers/events';
import { BASE as DOCUMENTS } from '../helpers/exchange-rates';
import { createRoute, ROUTES, routeBody, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

type Member = { id: string; key: string; description: string };
type RouteResource = Record<string, unknown> & {
  id: string;
  version: number;
  locations: Member[];
  equipmentItems: Member[];
  tools: Member[];
};
type DocumentResource = Record<string, unknown> & { id: string; version: number; exchangeRateDocumentRates: Record<string, unknown>[] };

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('upd-rel');
  await seedRouteReferenceData(client);
});

function paths(problem: Problem): string[] {
  return problem.errors.map((error) => error.path).sort();
}

async function addLocations(keys: string[], routeKey = 'R1'): Promise<void> {
  const added = await client.call('POST', `${ROUTES}/${routeKey}/locations/add`, { body: keys });
  expect(added.status, added.text).toBe(200);
}

describe('PATCH and PUT of a route', () => {
  it('changes brand and brand model together (one at a time each PUT would be refused), by key and by id', async () => {
    const id = await createRoute(client, { brand: 'B1', brandModel: 'M1' });
    const patched = await client.call<RouteResource>('PATCH', `${ROUTES}/C1/R1`, {
      body: { brand: 'B2', brandModel: 'M2', remarks: 'Swapped' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id, brand: 'B2', brandModel: 'M2', remarks: 'Swapped', version: 2, locations: [] });
    const byId = await client.call<RouteResource>('PATCH', `${ROUTES}/${id}`, { body: { description: 'By id' } });
    expect([byId.status, byId.body.description, byId.body.version]).toEqual([200, 'By id', 3]);
    const events = await readAllChanges(client, 'assetManagementCore/routes');
    expect(events.map((event) => event.changes ?? null)).toEqual([
      null,
      { attributes: ['brand', 'brandModel', 'remarks'] },
      { attributes: ['description'] },
    ]);
  });

  it('holds the routes rules on the record as the update leaves it: brand model, company with members, references', async () => {
    await createRoute(client, { brand: 'B1', brandModel: 'M1' });
    const mismatch = await client.call<Problem>('PATCH', `${ROUTES}/C1/R1`, { body: { brand: 'B2' } });
    expect([mismatch.status, paths(mismatch.body)]).toEqual([400, ['brand']]);
    const model = await client.call<Problem>('PATCH', `${ROUTES}/C1/R1`, { body: { brandModel: 'M2', description: 'x' } });
    expect([model.status, paths(model.body)]).toEqual([400, ['brandModel']]);
    const unknown = await client.call<Problem>('PATCH', `${ROUTES}/C1/R1`, { body: { family: 'NOPE' } });
    expect([unknown.status, unknown.body.code, paths(unknown.body)]).toEqual([400, 'UnknownReference', ['family']]);
    await addLocations(['L1']);
    const company = await client.call<Problem>('PATCH', `${ROUTES}/C1/R1`, { body: { company: 'C2', description: 'Moved' } });
    expect([company.status, paths(company.body)]).toEqual([400, ['company']]);
    const read = await client.call<RouteResource>('GET', `${ROUTES}/C1/R1`);
    expect([read.body.company, read.body.brand, read.body.description, read.body.version]).toEqual(['C1', 'B1', 'Weekly round', 2]);
  });

  it('accepts members sent back as read, refuses changed ones naming the property', async () => {
    await createRoute(client, { tools: ['T1'] });
    await addLocations(['L1', 'L2']);
    const read = await client.call<RouteResource>('GET', `${ROUTES}/C1/R1`);
    const asRead = await client.call<RouteResource>('PATCH', `${ROUTES}/C1/R1`, { body: { ...read.body, remarks: 'Same members' } });
    expect([asRead.status, asRead.body.remarks], asRead.text).toEqual([200, 'Same members']);
    const keys = await client.call<RouteResource>('PATCH', `${ROUTES}/C1/R1`, { body: { locations: ['L2', 'L1'], tools: ['T1'] } });
    expect(keys.status, keys.text).toBe(200);
    const changed = await client.call<Problem>('PATCH', `${ROUTES}/C1/R1`, {
      body: { locations: ['L1'], equipmentItems: ['Q1'], tools: ['T1'], remarks: 'No' },
    });
    expect([changed.status, paths(changed.body)]).toEqual([400, ['equipmentItems', 'locations']]);
  });

  it('replaces every field with PUT (by key), and changes the key', async () => {
    const id = await createRoute(client, { family: 'F1', remarks: 'Old', responsible: 'E1' });
    const replaced = await client.call<RouteResource>('PUT', `${ROUTES}/C1/R1`, {
      body: routeBody({ routeKey: 'R2', description: 'Renamed' }),
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({
      id,
      routeKey: 'R2',
      description: 'Renamed',
      family: null,
      remarks: null,
      responsible: null,
      version: 2,
    });
    expect((await client.call('GET', `${ROUTES}/C1/R2`)).status).toBe(200);
    expect((await client.call('GET', `${ROUTES}/C1/R1`)).status).toBe(404);
    const missing = await client.call<Problem>('PUT', `${ROUTES}/${id}`, { body: { routeKey: 'R3' } });
    expect([missing.status, paths(missing.body)]).toEqual([400, ['company', 'description']]);
  });
});

describe('deep insert of a route with its members', () => {
  it('creates the route with locations, equipment items and tools (keys or items as read) in one request', async () => {
    const created = await client.call<string>('POST', ROUTES, {
      body: routeBody({
        locations: ['L2', { key: 'L1' }],
        equipmentItems: [{ id: 'ignored', key: 'Q1', description: 'Boiler' }],
        tools: [{ key: 'T3' }],
      }),
    });
    expect(created.status, created.text).toBe(201);
    const read = await client.call<RouteResource>('GET', `${ROUTES}/${created.body}`);
    expect(read.body.locations.map((member) => member.key)).toEqual(['L1', 'L2']);
    expect(read.body.equipmentItems.map((member) => member.key)).toEqual(['Q1']);
    expect(read.body.tools.map((member) => member.key)).toEqual(['T3']);
    expect(read.body.version).toBe(1);
    expect((await readAllChanges(client, 'assetManagementCore/routes')).map((event) => event.changeType)).toEqual(['created']);
  });

  it('refuses members of another company or unknown ones as the membership operations do, and writes nothing', async () => {
    const other = await client.call<Problem>('POST', ROUTES, { body: routeBody({ locations: ['L1', 'L9'], equipmentItems: ['Q9'] }) });
    expect([other.status, other.body.code, paths(other.body)]).toEqual([400, 'ValidationFailed', ['equipmentItems[0]', 'locations[1]']]);
    const membership = await client.call<Problem>('POST', `${ROUTES}/R0/locations/add`, { body: ['L9'] });
    expect(membership.status).toBe(400);
    const unknown = await client.call<Problem>('POST', ROUTES, { body: routeBody({ locations: ['L1', 'NOPE'] }) });
    expect([unknown.status, unknown.body.code, paths(unknown.body)]).toEqual([400, 'UnknownReference', ['locations[1]']]);
    const malformed = await client.call<Problem>('POST', ROUTES, {
      body: routeBody({ locations: [{ id: 'x' }, 5, ''], equipmentItems: 'Q1' }),
    });
    expect([malformed.status, paths(malformed.body)]).toEqual([400, ['equipmentItems', 'locations[0]', 'locations[1]', 'locations[2]']]);
    expect((await client.call('GET', `${ROUTES}/C1/R1`)).status).toBe(404);
    expect(await readAllChanges(client, 'assetManagementCore/routes')).toEqual([]);
  });
});

const documentBody = {
  number: 1,
  validFrom: '2026-03-01T00:00:00Z',
  exchangeRateType: 1,
  isExternallyManaged: false,
  exchangeRateDocumentRates: [
    { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.0825 },
    { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: '0.8571' },
  ],
};

describe('exchange rates documents', () => {
  it('deep insert: the document with its lines; a bad line refuses the whole document', async () => {
    const bad = await client.call<Problem>('POST', DOCUMENTS, {
      body: {
        ...documentBody,
        exchangeRateDocumentRates: [
          ...documentBody.exchangeRateDocumentRates,
          { fromCurrency: 'EUR', toCurrency: 'XXX', conversionFactor: 1 },
        ],
      },
    });
    expect([bad.status, paths(bad.body)]).toEqual([400, ['exchangeRateDocumentRates.2.toCurrency']]);
    expect((await client.call('GET', `${DOCUMENTS}/1`)).status).toBe(404);
    const created = await client.call<string>('POST', DOCUMENTS, { body: documentBody });
    expect(created.status, created.text).toBe(201);
    const read = await client.call<DocumentResource>('GET', `${DOCUMENTS}/1`);
    expect(read.body.exchangeRateDocumentRates.map((line) => line.toCurrency)).toEqual(['USD', 'GBP']);
  });

  it('PATCH by number and PUT by id; lines as read are accepted, changed lines refused', async () => {
    const id = (await client.call<string>('POST', DOCUMENTS, { body: documentBody })).body;
    const read = await client.call<DocumentResource>('GET', `${DOCUMENTS}/1`);
    const patched = await client.call<DocumentResource>('PATCH', `${DOCUMENTS}/1`, {
      body: { ...read.body, externalId: 'ext-1', isExternallyManaged: true },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ externalId: 'ext-1', isExternallyManaged: true, version: 2 });
    expect(patched.body.exchangeRateDocumentRates).toEqual(read.body.exchangeRateDocumentRates);
    const lines = patched.body.exchangeRateDocumentRates.map((line) => ({ ...line, conversionFactor: 2 }));
    const changed = await client.call<Problem>('PATCH', `${DOCUMENTS}/1`, { body: { exchangeRateDocumentRates: lines } });
    expect([changed.status, paths(changed.body)]).toEqual([400, ['exchangeRateDocumentRates']]);
    const replaced = await client.call<DocumentResource>('PUT', `${DOCUMENTS}/${id}`, {
      body: { number: 2, validFrom: '2026-04-01', exchangeRateType: 'User', isExternallyManaged: false },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({
      number: 2,
      validFrom: '2026-04-01T00:00:00.000Z',
      exchangeRateType: 3,
      externalId: null,
      version: 3,
    });
    expect(replaced.body.exchangeRateDocumentRates).toHaveLength(2);
    expect((await client.call('GET', `${DOCUMENTS}/2`)).status).toBe(200);
  });
});
