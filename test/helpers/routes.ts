/** Test helpers of the routes service: the reference data a route needs, and a route factory. */
import { expect } from 'vitest';
import type { TenantClient } from './api';

export const ROUTES = '/assetManagementCore/routes';

/** Two companies (C1 EUR, C2 USD) with their locations, equipment items, employees, tools, brands and models. */
export const ROUTE_REFERENCE_DATA: Record<string, Record<string, unknown>[]> = {
  companies: [
    { key: 'C1', name: 'Company One', baseCurrency: 'EUR' },
    { key: 'C2', name: 'Company Two', baseCurrency: 'USD' },
  ],
  employees: [
    { key: 'E1', name: 'Ana Silva', company: 'C1' },
    { key: 'E2', name: 'Bob Stone' },
  ],
  locations: [
    { key: 'L1', description: 'Boiler room', company: 'C1' },
    { key: 'L2', description: 'Roof', company: 'C1' },
    { key: 'L3', description: 'Basement', company: 'C1' },
    { key: 'L9', description: 'Other warehouse', company: 'C2' },
  ],
  equipmentItems: [
    { key: 'Q1', description: 'Boiler', company: 'C1' },
    { key: 'Q2', description: 'Chiller', company: 'C1' },
    { key: 'Q9', description: 'Forklift', company: 'C2' },
  ],
  tools: [
    { key: 'T1', description: 'Torque wrench' },
    { key: 'T2', description: 'Multimeter' },
    { key: 'T3', description: 'Ladder' },
  ],
  locationFunctions: [{ key: 'LF1', description: 'Technical area' }],
  families: [{ key: 'F1', description: 'HVAC' }],
  brands: [
    { key: 'B1', description: 'Acme' },
    { key: 'B2', description: 'Globex' },
  ],
  brandModels: [
    { key: 'M1', description: 'Acme 3000', brand: 'B1' },
    { key: 'M2', description: 'Globex X', brand: 'B2' },
  ],
};

export async function seedRouteReferenceData(client: TenantClient): Promise<void> {
  for (const [kind, records] of Object.entries(ROUTE_REFERENCE_DATA)) {
    const result = await client.call('PUT', `/referenceData/${kind}`, { body: records });
    expect(result.status, `${kind}: ${result.text}`).toBe(200);
  }
}

export function routeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { routeKey: 'R1', description: 'Weekly round', company: 'C1', ...overrides };
}

export async function createRoute(client: TenantClient, overrides: Record<string, unknown> = {}): Promise<string> {
  const result = await client.call<string>('POST', ROUTES, { body: routeBody(overrides) });
  expect(result.status, result.text).toBe(201);
  return result.body;
}

/** The reference id of a record, by kind and key. */
export async function readReferenceId(client: TenantClient, kind: string, key: string): Promise<string> {
  const list = await client.call<{ items: { id: string; key: string }[] }>('GET', `/referenceData/${kind}`);
  const found = list.body.items.find((item) => item.key === key);
  if (!found) throw new Error(`No ${kind} ${key}`);
  return found.id;
}
