// Live streams under load (`npm run bench -- --live`): with 1, 100 and 1,000 Server-Sent Events clients connected to
// one tenant/org, the commit-to-client latency of its changes (arrival at the client minus the change's `occurredOn`,
// the audit stamp taken before the commit: an upper bound), and its write throughput against a tenant/org on the same
// database with no client connected (alternating rounds). The clients run in a process of their own
// (live-clients.mjs): a few of them ("observers") parse every event and note its latency, the others only count the
// changes they get (each must get every one) in the raw bytes. The CPU the server, the clients, the load generator
// (this process) and the rest of the machine used in each phase is noted (/proc), as they share the same cores.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { runRound } from './load.mjs';
import { send, SECRET, TENANT } from './fixtures.mjs';

/** Clients per token: the API allows 20 streams per token (docs/live.md). */
const CLIENTS_PER_TOKEN = 10;
const OBSERVERS = 10;
/** /proc's clock ticks per second (USER_HZ). */
const TICKS_PER_SECOND = 100;

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

/** The clients' process (bench/lib/live-clients.mjs) and a request to it, answered by its next message. */
function forkClients() {
  const child = fork(fileURLToPath(new URL('./live-clients.mjs', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (message) =>
    new Promise((resolve, reject) => {
      child.once('message', (answer) => (answer.type === 'failed' ? reject(new Error(answer.error)) : resolve(answer)));
      child.send(message);
    });
  return { child, ask };
}

/** `count` clients on `base` (tokens of 10 clients each, the first OBSERVERS of them observers), in their own process. */
async function connectClients(base, count) {
  const tokens = [];
  for (let index = 0; index < Math.ceil(count / CLIENTS_PER_TOKEN); index += 1) tokens.push(await mintClientToken(`live-${index}`));
  const clients = forkClients();
  try {
    await clients.ask({ type: 'connect', url: `${base}/changes/stream`, tokens, perToken: CLIENTS_PER_TOKEN, count, observers: OBSERVERS });
  } catch (error) {
    clients.child.kill();
    throw error;
  }
  return {
    pid: clients.child.pid,
    progress: () => clients.ask({ type: 'progress' }),
    take: () => clients.ask({ type: 'take' }),
    close: () => clients.child.send({ type: 'close' }),
  };
}

/** CPU milliseconds a process has used (user and system, from /proc), or undefined when it is not readable. */
function readProcessCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The machine's busy CPU milliseconds (all cores, from /proc/stat). */
function readMachineBusyMs() {
  const values = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return ((values.reduce((sum, value) => sum + value, 0) - values[3] - values[4]) * 1000) / TICKS_PER_SECOND;
}

/** A snapshot of the CPU used so far by the server, the clients' process, this process (the load) and the machine. */
function snapshotCpu(pids) {
  const own = process.cpuUsage();
  return {
    wall: performance.now(),
    server: pids.server === undefined ? 0 : (readProcessCpuMs(pids.server) ?? 0),
    clients: readProcessCpuMs(pids.clients) ?? 0,
    load: (own.user + own.system) / 1000,
    busy: readMachineBusyMs(),
  };
}

/** What was used between two snapshots, added to `sum` (milliseconds). */
function addCpu(sum, before, after) {
  const total = { ...sum };
  for (const key of Object.keys(before)) total[key] = (total[key] ?? 0) + after[key] - before[key];
  return total;
}

/** Cores used (of the machine's 2): the server, the clients, the load generator (this process), and everything else. */
function describeCpu(used, serverKnown) {
  const cores = (ms) => Math.round((ms / used.wall) * 100) / 100;
  return {
    server: serverKnown ? cores(used.server) : null,
    clients: cores(used.clients),
    load: cores(used.load),
    others: cores(used.busy - used.server - used.clients - used.load),
    busy: cores(used.busy),
  };
}

/** Waits until `done(progress)` or `timeoutMs`; answers the last progress. */
async function waitForClients(clients, done, timeoutMs) {
  const started = Date.now();
  for (;;) {
    const progress = await clients.progress();
    if (done(progress) || Date.now() - started > timeoutMs) return progress;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `writes` creates one after another, `gapMs` apart; answers when every client got each of them (or after 60 s). */
async function sendPaced(api, token, prefix, count, clients, writes, gapMs) {
  for (let index = 0; index < writes; index += 1) {
    const key = `paced-${count}-${index}-${Date.now()}`;
    await send(api, token, 'POST', '/operations/emailTemplates', templateOf(key), prefix);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  const expected = Math.min(count, OBSERVERS) * writes;
  await waitForClients(clients, ({ observed, changes }) => observed >= expected && (changes === null || changes >= writes), 60_000);
}

/**
 * Alternating rounds of creates without clients (`a`) and with them (`b`), after a one-second warm-up of each (as
 * compareRounds in load.mjs): each side's median rate, the CPU each process used during its rounds, and the creates
 * the watched side made (every client must get each).
 */
async function compareWithCpu(a, b, rounds, seconds, pids) {
  await runRound({ ...a, seconds: 1 });
  const warm = await runRound({ ...b, seconds: 1 });
  let created = warm.total - warm.failed;
  const rates = { a: [], b: [] };
  const cpu = { a: {}, b: {} };
  for (let round = 0; round < rounds; round += 1) {
    for (const [side, load] of [
      ['a', a],
      ['b', b],
    ]) {
      const before = snapshotCpu(pids);
      const result = await runRound({ ...load, seconds });
      cpu[side] = addCpu(cpu[side], before, snapshotCpu(pids));
      rates[side].push(result.rps);
      if (side === 'b') created += result.total - result.failed;
    }
  }
  const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  return { a: { rps: median(rates.a), cpu: cpu.a }, b: { rps: median(rates.b), cpu: cpu.b }, created };
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
  const clients = await connectClients(`${api.url}${prefix}`, count);
  try {
    const connectMs = Date.now() - connectStarted;
    const pids = { server: api.pid?.(), clients: clients.pid };
    const before = snapshotCpu(pids);
    await sendPaced(api, token, prefix, count, clients, 100, 50);
    const pacedCpu = describeCpu(addCpu({}, before, snapshotCpu(pids)), pids.server !== undefined);
    const pacedTally = await clients.take();
    const writes = await compareWithCpu(
      createLoad(`${api.url}${quiet}`, auth),
      createLoad(`${api.url}${prefix}`, auth),
      rounds,
      seconds,
      pids,
    );
    await waitForClients(clients, ({ changes, most }) => changes === null || (changes >= writes.created && changes === most), 30_000);
    const loadTally = await clients.take();
    const entry = {
      clients: count,
      connect_ms: connectMs,
      latency_paced: {
        p50_ms: percentile(pacedTally.latencies, 50),
        p99_ms: percentile(pacedTally.latencies, 99),
        samples: pacedTally.latencies.length,
        missed: Math.min(count, OBSERVERS) * 100 - pacedTally.latencies.length,
        changes_per_client: pacedTally.changes,
      },
      latency_under_load: {
        p50_ms: percentile(loadTally.latencies, 50),
        p99_ms: percentile(loadTally.latencies, 99),
        samples: loadTally.latencies.length,
        creates: writes.created,
        changes_per_client: loadTally.changes,
      },
      writes_without_clients_rps: Math.round(writes.a.rps),
      writes_with_clients_rps: Math.round(writes.b.rps),
      write_ratio: Math.round((writes.b.rps / writes.a.rps) * 1000) / 1000,
      ended_by_server: loadTally.ended,
      cpu_cores: {
        paced: pacedCpu,
        without_clients: describeCpu(writes.a.cpu, pids.server !== undefined),
        with_clients: describeCpu(writes.b.cpu, pids.server !== undefined),
      },
    };
    console.error(`  live, ${count} clients: ${JSON.stringify(entry)}`);
    return entry;
  } finally {
    clients.close();
  }
}
