/**
 * D1 round trips are counted in coordinator commands too: the Durable Object answers each command's count, and a
 * request that sends commands adds them to its own (the request log's `d1RoundTrips`).
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { tenantClient } from '../helpers/api';
import { IMPORTS } from '../helpers/imports';
import { fetchLogged } from '../helpers/request-log';
import { uniqueKey } from '../helpers/tenants';

describe('D1 round trips of coordinator commands', () => {
  it('are answered by the Durable Object with the command, failed ones included', async () => {
    const scope = { tenantKey: uniqueKey('acme'), orgKey: uniqueKey('cmd-trips') };
    await tenantClient(scope.tenantKey, scope.orgKey);
    const stub = env.COORDINATOR.get(env.COORDINATOR.idFromName(`${scope.tenantKey}/${scope.orgKey}`));
    const base = { ...scope, requestId: 'cmd-trips', by: 'tester' };
    const id = crypto.randomUUID();
    const registered = await stub.answer({
      ...base,
      commandId: crypto.randomUUID(),
      type: 'imports.register',
      import: { id, importDataTemplate: 'trips', originalFileName: 'r.csv', importName: null, cloudFileName: null },
    });
    expect(registered).toMatchObject({ result: { id, key: 1 } });
    expect(registered.roundTrips).toBeGreaterThanOrEqual(1);
    const refused = await stub.answer({
      ...base,
      commandId: crypto.randomUUID(),
      type: 'imports.change',
      change: { importId: crypto.randomUUID(), importDataState: 2, detailLog: 'none' },
    });
    expect(refused.roundTrips).toBeGreaterThanOrEqual(1);
  });

  it('are counted in the log line of the request that sent them', async () => {
    const client = await tenantClient(uniqueKey('acme'), uniqueKey('cmd-log'));
    const { response, lines } = await fetchLogged(`${client.base}${IMPORTS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ importDataTemplate: 'customers' }),
    });
    expect(response.status).toBe(201);
    expect(lines).toHaveLength(1);
    // The handler itself reads nothing: every round trip counted is the register command's, in the Durable Object.
    expect(lines[0]?.d1RoundTrips).toEqual(expect.any(Number));
    expect(Number(lines[0]?.d1RoundTrips)).toBeGreaterThanOrEqual(1);
  });
});
