/** The structured request log: one JSON line per request, 5xx at level error with the error. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tenantClient } from '../helpers/api';
import { fetchLogged } from '../helpers/request-log';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the request log', () => {
  it('writes one line per request: id, tenant/org, route, status, duration and D1 round trips', async () => {
    const client = await tenantClient('log', crypto.randomUUID());
    const created = await client.call<string>('POST', '/operations/emailTemplates', {
      body: { templateKey: 'logged', subject: 's', emailTemplateType: 1, notificationBody: 'b', culture: 'en-US' },
    });
    expect(created.status).toBe(201);
    const { response, lines } = await fetchLogged(`${client.base}/operations/emailTemplates/logged`, {
      headers: { authorization: `Bearer ${client.token}`, 'x-request-id': 'log-test-1' },
    });
    expect(response.status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      message: 'request',
      requestId: 'log-test-1',
      method: 'GET',
      path: `${client.base}/operations/emailTemplates/logged`,
      route: '/api/:tenantKey/:orgKey/operations/emailTemplates/:idOrTemplateKey',
      tenantKey: client.tenant,
      orgKey: client.org,
      status: 200,
      // A read by key is one D1 query; auth never reads D1.
      d1RoundTrips: 1,
    });
    expect(lines[0]?.durationMs).toEqual(expect.any(Number));
    expect(lines[0]).not.toHaveProperty('error');
  });

  it('logs unrouted requests with no route and no D1 round trip', async () => {
    const { response, lines } = await fetchLogged('/nothing-here', {});
    expect(response.status).toBe(404);
    expect(lines).toEqual([expect.objectContaining({ level: 'info', route: null, tenantKey: null, status: 404, d1RoundTrips: 0 })]);
  });

  it('logs a 5xx answer at level error with the error, and answers without internals', async () => {
    const client = await tenantClient('log', crypto.randomUUID());
    const { response, lines } = await fetchLogged(
      `${client.base}/operations/emailTemplates/odata`,
      { headers: { authorization: `Bearer ${client.token}` } },
      (platform) => ({
        ...platform,
        openTenant: () => {
          throw new Error('database unreachable in test');
        },
      }),
    );
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('database unreachable');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', status: 500, tenantKey: client.tenant, orgKey: client.org });
    expect(lines[0]?.error).toContain('Error: database unreachable in test');
  });
});
