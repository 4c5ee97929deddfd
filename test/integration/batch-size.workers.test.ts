/**
 * `$batch` at its maximum size (issue 28): 100 creates answer within the Worker's limits. Each inner request is logged
 * as a request of its own (id `<batch id>:<inner id>`) and costs what it costs alone: one D1 round trip per create,
 * so the whole batch stays near 100 D1 calls (a Worker may make 1,000). Counts, never timings.
 */
import { describe, expect, it } from 'vitest';
import { fetchLogged } from '../helpers/request-log';
import { templateBody } from '../helpers/batch';
import { freshTenant } from '../helpers/tenants';

describe('$batch at 100 requests', () => {
  it('creates 100 records, one log line and one D1 round trip per create', async () => {
    const client = await freshTenant('batch-max');
    // The first create of a tenant/org on an isolate reads its definitions and places it: warm it outside the count.
    expect((await client.call('POST', '/operations/emailTemplates', { body: templateBody('warm') })).status).toBe(201);
    const requests = Array.from({ length: 100 }, (_, index) => ({
      id: `c${index}`,
      method: 'POST',
      url: 'operations/emailTemplates',
      body: templateBody(`max-${index}`),
    }));
    const { response, lines } = await fetchLogged(`${client.base}/$batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'x-request-id': 'batch-max' },
      body: JSON.stringify({ requests }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { responses: { id: string; status: number }[] };
    expect(answer.responses.map((entry) => entry.status)).toEqual(Array.from({ length: 100 }, () => 201));
    const inner = lines.filter((line) => String(line.requestId).startsWith('batch-max:'));
    expect(inner).toHaveLength(100);
    expect(inner.map((line) => line.d1RoundTrips)).toEqual(Array.from({ length: 100 }, () => 1));
    const outer = lines.find((line) => line.requestId === 'batch-max');
    expect(outer).toMatchObject({ status: 200, route: '/api/:tenantKey/:orgKey/$batch', d1RoundTrips: 0 });
  });
});
