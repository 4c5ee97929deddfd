import { describe, expect, it } from 'vitest';
import { referenceData, records } from '../../scripts/seed/routes.mjs';
import { applySeedModule } from '../../scripts/seed/apply.mjs';
import type { SeedModule } from '../../scripts/seed/apply.mjs';
import type { TenantClient } from '../helpers/api';
import { ROUTES } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

/** Applies a service's demo data with the seeder of scripts/seed.mjs, through the Worker; returns how many records were created. */
function applySeed(client: TenantClient, module: SeedModule, statuses: number[] = []): Promise<number> {
  return applySeedModule(module, async (method, path, body) => {
    const result = await client.call(method, path, body === undefined ? {} : { body });
    statuses.push(result.status);
    return { status: result.status, text: result.text };
  });
}

describe('demo seed of routes', () => {
  it('seeds routes with members, idempotently', async () => {
    const client = await freshTenant('demo');
    const routes = records.filter((record) => record.findPath !== undefined);
    expect(routes).toHaveLength(3);
    expect(await applySeed(client, { referenceData, records })).toBe(routes.length);
    // Again: nothing new, and no request that fails (existing routes are found, not created twice).
    const statuses: number[] = [];
    expect(await applySeed(client, { referenceData, records }, statuses)).toBe(0);
    expect(statuses.filter((status) => status >= 400)).toEqual([]);
    const route = await client.call<{
      locations: { key: string }[];
      equipmentItems: { key: string }[];
      tools: { key: string }[];
      version: number;
    }>('GET', `${ROUTES}/ACME-PT/ROUTE-01`);
    expect(route.status).toBe(200);
    expect(route.body.locations.map((item) => item.key)).toEqual(['LOC-LIS-BOILER', 'LOC-LIS-ROOF']);
    expect(route.body.equipmentItems.map((item) => item.key)).toEqual(['EQ-BOILER-01', 'EQ-CHILLER-01']);
    expect(route.body.tools.map((item) => item.key)).toEqual(['TOOL-METER', 'TOOL-WRENCH']);
    expect(route.body.version).toBe(3);
    const us = await client.call<{ locations: { key: string }[] }>('GET', `${ROUTES}/ACME-US/ROUTE-01`);
    expect(us.body.locations.map((item) => item.key)).toEqual(['LOC-NY-HALL']);
    const ambiguous = await client.call('POST', `${ROUTES}/ROUTE-01/locations/add`, { body: ['LOC-OPO-WH'] });
    expect(ambiguous.status).toBe(400);
    const parameters = await client.call<{ name: string; value: string | null }[]>(
      'GET',
      `${ROUTES}/getMaintenanceNotificationTemplateParameters/ACME-PT/ROUTE-01?cultureKey=pt-PT`,
    );
    expect(parameters.status).toBe(200);
    expect(parameters.body.find((parameter) => parameter.name === 'responsibleName')?.value).toBe('Ana Costa');
  });
});
