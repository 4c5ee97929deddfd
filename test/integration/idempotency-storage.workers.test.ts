/**
 * The replay store never holds a secret in clear (src/idempotency/seal.ts): after an API client create with
 * Idempotency-Key, the coordinator's storage holds neither the client secret nor the key itself (answer bodies are
 * sealed, keys stored as digests), while the same caller's replay still answers the secret.
 */
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { TenantCoordinator } from '../../src/index';
import type { ApiClientAnswer } from '../helpers/identity';
import { API_CLIENTS } from '../helpers/identity';
import { freshTenant } from '../helpers/tenants';

async function readStorageText(tenant: string, org: string): Promise<string> {
  const stub = env.COORDINATOR.get(env.COORDINATOR.idFromName(`${tenant}/${org}`));
  return runInDurableObject(stub, async (_instance: TenantCoordinator, state) => {
    const entries = await state.storage.list();
    return JSON.stringify([...entries]);
  });
}

describe('the idempotency replay store', () => {
  it('keeps no secret and no key in clear, and still replays them to the same caller', async () => {
    const client = await freshTenant('sealed');
    const key = `sealed-${crypto.randomUUID()}`;
    const first = await client.call<ApiClientAnswer>('POST', API_CLIENTS, {
      headers: { 'idempotency-key': key },
      body: { name: 'Sealed' },
    });
    expect(first.status, first.text).toBe(201);
    const stored = await readStorageText(client.tenant, client.org);
    expect(stored).toContain('idem:');
    expect(stored).not.toContain(first.body.clientSecret);
    expect(stored).not.toContain(key);
    const replay = await client.call<ApiClientAnswer>('POST', API_CLIENTS, {
      headers: { 'idempotency-key': key },
      body: { name: 'Sealed' },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.clientSecret).toBe(first.body.clientSecret);
  });
});
