// Live streams under load (`npm run bench -- --live`): with 1, 100 and 1,000 Server-Sent Events clients connected to
// one tenant/org, the commit-to-client latency of its changes (arrival at the client minus the change's `occurredOn`,
// the audit stamp taken before the commit: an upper bound), and its write throughput against a tenant/org on the same
// database with no client connected (alternating rounds). Every client reads its stream; a few of them ("observers")
// parse every event and note its latency, the others only drain what they are sent (as many browsers would).
import http from 'node:http';
import { SignJWT } from 'jose';
import { compareRounds } from './load.mjs';
import { send, SECRET, TENANT } from './fixtures.mjs';

/** Clients per token: the API allows 20 streams per token (docs/live.md). */
const CLIENTS_PER_TOKEN = 10;
const OBSERVERS = 10;

function mintClientToken(subject) {
  return new SignJWT({ scope: 'application', orgs: [`${TENANT}/*`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('6h')
    .sign(new TextEncoder().encode(SECRET));
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * One client: resolves once its stream is `ready`. An observer hands each change (and when it arrived) to `onChange`;
 * any `end` event is counted (a client the server ended: a slow consumer, an expired token).
 */
function openClient(url, token, observer, tally) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` }, agent: false });
    request.on('error', reject);
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`${url}: ${response.statusCode}`));
        response.resume();
        return;
      }
      response.setEncoding('utf8');
      let pending = '';
      let ready = false;
      response.on('data', (chunk) => {
        const arrived = Date.now();
        if (ready && !observer) {
          if (chunk.includes('event: end')) tally.ended += 1;
          return;
        }
        pending += chunk;
        let cut;
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          if (block.includes('event: ready')) {
            ready = true;
            resolve({ close: () => request.destroy() });
          } else if (block.includes('event: end')) tally.ended += 1;
          else if (block.includes('event: change')) {
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            tally.latencies.push(arrived - Date.parse(JSON.parse(data.slice(6)).occurredOn));
          }
        }
      });
      response.on('end', () => (tally.closed += 1));
    });
    request.end();
  });
}

/** `count` clients on `base` (tokens of 10 clients each), opened 50 at a time; answers them and their tally. */
async function connectClients(base, count) {
  const tally = { latencies: [], ended: 0, closed: 0 };
  const tokens = [];
  for (let index = 0; index < Math.ceil(count / CLIENTS_PER_TOKEN); index += 1) tokens.push(await mintClientToken(`live-${index}`));
  const clients = [];
  for (let start = 0; start < count; start += 50) {
    const batch = [];
    for (let index = start; index < Math.min(count, start + 50); index += 1)
      batch.push(openClient(`${base}/changes/stream`, tokens[Math.floor(index / CLIENTS_PER_TOKEN)], index < OBSERVERS, tally));
    clients.push(...(await Promise.all(batch)));
  }
  return { tally, close: () => clients.forEach((client) => client.close()) };
}

/** `writes` creates one after another, `gapMs` apart; answers when every observer got each of them (or after 60 s). */
async function sendPaced(api, token, prefix, count, tally, writes, gapMs) {
  const expected = tally.latencies.length + Math.min(count, OBSERVERS) * writes;
  const started = Date.now();
  for (let index = 0; index < writes; index += 1) {
    const key = `paced-${count}-${index}-${Date.now()}`;
    await send(api, token, 'POST', '/operations/emailTemplates', templateOf(key), prefix);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  while (tally.latencies.length < expected && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 50));
  return expected - tally.latencies.length;
}

function templateOf(templateKey) {
  return { templateKey, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' };
}

/**
 * For each client count: latency of paced writes (20 per second for 5 s), then creates at full speed on the watched
 * tenant/org against an unwatched one (alternating rounds), with the latency seen meanwhile.
 */
export async function measureLive({ api, token, createLoad, rounds, seconds, counts = [1, 100, 1000] }) {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const quiet = `/api/${TENANT}/live-none`;
  await send(api, token, 'POST', '/operations/emailTemplates', templateOf('placed'), quiet);
  const figures = [];
  for (const count of counts) {
    try {
      figures.push(await measureCount({ api, token, auth, quiet, createLoad, rounds, seconds, count }));
    } catch (error) {
      // The server under test failed (wrangler dev has exited at 1,000 clients): the counts measured so far are kept.
      console.error(`  live, ${count} clients: failed: ${error.message}${error.cause ? ` (${error.cause.message})` : ''}`);
      figures.push({ clients: count, failed: `${error.message}${error.cause ? ` (${error.cause.message})` : ''}` });
      break;
    }
  }
  return figures;
}

/** One client count: connect, paced latency, then write rounds against the unwatched tenant/org. */
async function measureCount({ api, token, auth, quiet, createLoad, rounds, seconds, count }) {
  const prefix = `/api/${TENANT}/live-${count}`;
  await send(api, token, 'POST', '/operations/emailTemplates', templateOf('placed'), prefix);
  const connectStarted = Date.now();
  const { tally, close } = await connectClients(`${api.url}${prefix}`, count);
  const connectMs = Date.now() - connectStarted;
  const missed = await sendPaced(api, token, prefix, count, tally, 100, 50);
  const paced = {
    p50_ms: percentile(tally.latencies, 50),
    p99_ms: percentile(tally.latencies, 99),
    samples: tally.latencies.length,
    missed,
  };
  tally.latencies.length = 0;
  const writes = await compareRounds(createLoad(`${api.url}${quiet}`, auth), createLoad(`${api.url}${prefix}`, auth), rounds, seconds);
  const underLoad = { p50_ms: percentile(tally.latencies, 50), p99_ms: percentile(tally.latencies, 99), samples: tally.latencies.length };
  close();
  const entry = {
    clients: count,
    connect_ms: connectMs,
    latency_paced: paced,
    latency_under_load: underLoad,
    writes_without_clients_rps: Math.round(writes.a.rps),
    writes_with_clients_rps: Math.round(writes.b.rps),
    write_ratio: Math.round((writes.b.rps / writes.a.rps) * 1000) / 1000,
    ended_by_server: tally.ended,
  };
  console.error(`  live, ${count} clients: ${JSON.stringify(entry)}`);
  return entry;
}
