import { describe, expect, it } from 'vitest';
import { seed } from '../../scripts/seed/imports.mjs';
import { IMPORTS } from '../helpers/imports';
import type { ImportResource } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

describe('demo seed of imports', () => {
  it('seeds imports in several states once, and nothing on a second start', async () => {
    const client = await freshTenant('demo');
    const send = async (method: string, path: string, body?: unknown) => {
      const result = await client.call(method, path, body === undefined ? {} : { body });
      return { status: result.status, text: result.text };
    };
    expect(await seed(send)).toBe(4);
    expect(await seed(send)).toBe(0);
    const customers = await client.call<ImportResource[]>('GET', `${IMPORTS}/getLastImports?templateId=customers`);
    expect(customers.body.map((item) => item.importDataState)).toEqual([2, 3]);
    const items = await client.call<ImportResource[]>('GET', `${IMPORTS}/getLastImports?templateId=items`);
    expect(items.body.map((item) => item.importDataState)).toEqual([1, 4]);
  });
});
