import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

const OPERATION = `${ROUTES}/getMaintenanceNotificationTemplateParameters`;

type Parameters = { name: string; value: string | null }[];

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('acme');
  await seedRouteReferenceData(client);
  await createRoute(client, { routeKey: 'N1', description: 'Boiler check', responsible: 'E1', tools: 'T1,T2' });
  for (const [segment, keys] of [
    ['locations', ['L1', 'L2']],
    ['equipmentitems', ['Q1']],
  ] as const) {
    const result = await client.call('POST', `${ROUTES}/N1/${segment}/add`, { body: keys });
    expect(result.status, result.text).toBe(200);
  }
  await createRoute(client, { routeKey: 'N2', company: 'C2' });
});

function toMap(parameters: Parameters): Record<string, string | null> {
  return Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.value]));
}

/** Today's UTC date in a culture; read before and after the call so a midnight in between cannot fail the test. */
function todays(culture: string): string[] {
  const format = new Intl.DateTimeFormat(culture, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
  return [format.format(new Date())];
}

describe('getMaintenanceNotificationTemplateParameters', () => {
  it('answers the {name, value} pairs of the route for en-US', async () => {
    const before = todays('en-US');
    const result = await client.call<Parameters>('GET', `${OPERATION}/C1/N1?cultureKey=en-US`);
    const after = todays('en-US');
    expect(result.status, result.text).toBe(200);
    expect(result.body.map((parameter) => parameter.name)).toEqual([
      'routeKey',
      'description',
      'company',
      'companyName',
      'responsible',
      'responsibleName',
      'locationCount',
      'locations',
      'equipmentItemCount',
      'equipmentItems',
      'toolCount',
      'tools',
      'date',
      'longDate',
    ]);
    const values = toMap(result.body);
    expect(values).toMatchObject({
      routeKey: 'N1',
      description: 'Boiler check',
      company: 'C1',
      companyName: 'Company One',
      responsible: 'E1',
      responsibleName: 'Ana Silva',
      locationCount: '2',
      locations: 'L1 (Boiler room) and L2 (Roof)',
      equipmentItemCount: '1',
      equipmentItems: 'Q1 (Boiler)',
      toolCount: '2',
      tools: 'T1 (Torque wrench) and T2 (Multimeter)',
    });
    expect([...before, ...after]).toContain(values.date);
    expect(values.date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  });

  it('formats dates and lists for the culture', async () => {
    const pt = toMap((await client.call<Parameters>('GET', `${OPERATION}/C1/N1?cultureKey=pt-PT`)).body);
    expect(pt.locations).toBe('L1 (Boiler room) e L2 (Roof)');
    expect(pt.date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(pt.longDate).toMatch(/^\d{1,2} de \p{L}+ de \d{4}$/u);
    const de = toMap((await client.call<Parameters>('GET', `${OPERATION}/C1/N1?cultureKey=de-DE`)).body);
    expect(de.date).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(de.tools).toBe('T1 (Torque wrench) und T2 (Multimeter)');
  });

  it('answers null names and empty lists for a route without responsible or members', async () => {
    const values = toMap((await client.call<Parameters>('GET', `${OPERATION}/C2/N2?cultureKey=en-GB`)).body);
    expect(values).toMatchObject({
      responsible: null,
      responsibleName: null,
      locationCount: '0',
      locations: '',
      equipmentItems: '',
      tools: '',
    });
  });

  it('answers 400 for a missing or unknown culture and for an unknown route', async () => {
    const missing = await client.call<Problem>('GET', `${OPERATION}/C1/N1`);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('ValidationFailed');
    expect(missing.body.errors[0]?.path).toBe('cultureKey');
    const unknown = await client.call<Problem>('GET', `${OPERATION}/C1/N1?cultureKey=xx-XX`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UnknownReference');
    expect(unknown.body.errors[0]?.path).toBe('cultureKey');
    const route = await client.call<Problem>('GET', `${OPERATION}/C1/nothing?cultureKey=en-US`);
    expect(route.status).toBe(400);
    expect(route.body.code).toBe('RecordNotFound');
  });
});
