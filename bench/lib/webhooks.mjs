// Webhooks under load: write throughput of a tenant/org with 0 and with 3 subscriptions (alternating rounds), and the
// end-to-end delivery latency (commit -> the receiver has the event) of every event the 3 subscriptions received.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { compareRounds } from './load.mjs';
import { send } from './fixtures.mjs';

/** A local receiver: answers the handshake, notes when each event arrives (ms after its occurredOn). */
async function startReceiver() {
  const latencies = [];
  let notifications = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const arrived = Date.now();
      const token = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('validationToken');
      if (token !== null) return response.writeHead(200, { 'content-type': 'text/plain' }).end(token);
      notifications += 1;
      for (const item of JSON.parse(Buffer.concat(chunks).toString('utf8')).value) latencies.push(arrived - Date.parse(item.occurredOn));
      return response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    latencies,
    notifications: () => notifications,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `createLoad(base)` is the write load (email template creates). Answers the two write rounds' summaries and the
 * delivery figures: events created with subscriptions, deliveries expected (x3) and received, latency p50/p99.
 */
export async function measureWebhooks(api, token, createLoad, rounds, seconds) {
  const receiver = await startReceiver();
  try {
    const quiet = '/api/hooks/none';
    const busy = '/api/hooks/three';
    await send(
      api,
      token,
      'POST',
      '/operations/emailTemplates',
      { templateKey: 'placed', subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' },
      quiet,
    );
    for (let index = 0; index < 3; index += 1)
      await send(api, token, 'POST', '/subscriptions', { notificationUrl: `${receiver.url}/${index}`, resource: '*' }, busy);
    const before = await countAllEvents(api, token, busy);
    const writes = await compareRounds(createLoad(`${api.url}${quiet}`), createLoad(`${api.url}${busy}`), rounds, seconds);
    const events = (await countAllEvents(api, token, busy)) - before;
    const expected = events * 3;
    // Deliveries catch up after the load: wait (at most 120 s) until every event reached every subscription.
    const deadline = Date.now() + 120_000;
    while (receiver.latencies.length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    return {
      writes,
      delivery: {
        events,
        expected_deliveries: expected,
        received: receiver.latencies.length,
        notifications: receiver.notifications(),
        latency_p50_ms: percentile(receiver.latencies, 50),
        latency_p99_ms: percentile(receiver.latencies, 99),
      },
    };
  } finally {
    await receiver.stop();
  }
}

/** Every event of the tenant/org, counted page by page. */
async function countAllEvents(api, token, prefix) {
  let count = 0;
  let query = '?$top=1000';
  for (;;) {
    const page = await send(api, token, 'GET', `/changes${query}`, undefined, prefix);
    count += page.items.length;
    if (!page.nextPageLink) return count;
    query = new URL(page.nextPageLink).search;
  }
}
