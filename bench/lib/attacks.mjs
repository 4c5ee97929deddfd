// npm run bench -- --attacks [--save]: issue 41's attack requests against both runtimes as users run them (`npm start`:
// workerd through Miniflare's API; `npm run start:deno`: one Deno process), each server on a port and state of its own.
// For every attack file (bench/lib/attack-files.mjs), the render of 416 MB and the batches of renders: the time to
// its refusal (or Fatal), the runtime's resident memory (VmRSS of its processes, sampled every 50 ms: before, highest,
// after) and the slowest answer of /health and of another tenant's request while it ran. Writes
// bench/results/attacks.json with --save. Linux (/proc) only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { readDevVar } from '../../scripts/dev-vars.mjs';
import { buildAttackFiles, CSV_HEADER } from './attack-files.mjs';
import { waitFor } from './servers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SAMPLE_MS = 50;

/** The pids of `pid`'s process tree whose command is `name`. */
function findProcesses(pid, name) {
  const parents = new Map();
  const names = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (candidate) => {
    for (let current = candidate; current > 1; current = parents.get(current) ?? 0) if (current === pid) return true;
    return false;
  };
  return [...names].filter(([candidate, command]) => command === name && inTree(candidate)).map(([candidate]) => candidate);
}

/** Resident memory of the processes, in MB. */
function readRss(pids) {
  let kilobytes = 0;
  for (const pid of pids) {
    try {
      kilobytes += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round(kilobytes / 1024);
}

async function startServer(runtime, port, state) {
  const script = runtime === 'workerd' ? 'scripts/start.mjs' : 'scripts/start-deno.mjs';
  const env = { ...process.env, PORT: String(port), RATE_LIMIT_PER_MINUTE: '0', PERSIST_TO: state, DENO_DATA_DIR: state };
  const child = spawn(process.execPath, [script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  child.stderr.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/health`);
    // The demo seed runs after /health answers: wait for its line (npm start and start:deno print "Seed: ...").
    const seeded = () => /^Seed: /m.test(output.join(''));
    for (let waited = 0; !seeded(); waited += 500) {
      if (waited >= 300_000) throw new Error('no "Seed:" line within 300 s');
      await sleep(500);
    }
  } catch (error) {
    process.kill(-child.pid, 'SIGKILL');
    throw new Error(`${runtime} did not start: ${error}\n${output.join('').slice(-2000)}`);
  }
  const command = runtime === 'workerd' ? 'workerd' : 'deno';
  return {
    runtime,
    url,
    pids: () => findProcesses(child.pid, command),
    stop: async () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // gone
      }
      await sleep(1000);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    },
  };
}

const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function mint(tenant, org) {
  return new SignJWT({ scope: 'application admin', orgs: [`${tenant}/${org}`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`attacker-${tenant}`)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(readDevVar('JWT_SECRET')));
}

/** Runs `attack` while sampling the runtime's memory and timing /health and another tenant's list. */
async function measure(server, bystander, attack) {
  const pids = server.pids();
  const before = readRss(pids);
  let peak = before;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, readRss(pids));
      await sleep(SAMPLE_MS);
    }
  })();
  const slowest = { health: 0, tenant: 0 };
  /** The time one request takes (a request that gets no answer within 60 s counts as 60 s). */
  const time = async (url, init = {}) => {
    const started = performance.now();
    try {
      await (await fetch(url, { ...init, signal: globalThis.AbortSignal.timeout(60_000) })).arrayBuffer();
    } catch {
      return 60_000;
    }
    return performance.now() - started;
  };
  const watcher = (async () => {
    while (!done) {
      slowest.health = Math.max(slowest.health, await time(`${server.url}/health`));
      const list = `${server.url}${bystander.base}/operations/emailTemplates/odata?$top=1`;
      slowest.tenant = Math.max(slowest.tenant, await time(list, { headers: bystander.headers }));
    }
  })();
  const started = performance.now();
  let outcome;
  try {
    outcome = await attack();
  } finally {
    done = true;
    await Promise.all([sampler, watcher]);
  }
  await sleep(500);
  return {
    ...outcome,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    rss_mb: { before, peak, after: readRss(pids) },
    slowest_ms: { health: Math.round(slowest.health), other_tenant: Math.round(slowest.tenant) },
  };
}

async function client(server, label) {
  const tenant = `${label}-${Math.random().toString(36).slice(2, 8)}`;
  const base = `/api/${tenant}/main`;
  return { base, headers: { authorization: `Bearer ${await mint(tenant, 'main')}` } };
}

/** wrangler dev's answer when its worker restarted under a request (a local runtime's hiccup: sent again, noted). */
const RESTARTED = /worker restarted mid-request/;

async function importAttack(server, file, restarts = 0) {
  const attacker = await client(server, 'attack');
  const response = await fetch(`${server.url}${attacker.base}/corePatterns/importDataInfos/files?importDataTemplate=emailTemplates`, {
    method: 'POST',
    headers: { ...attacker.headers, 'content-type': file.contentType, 'content-disposition': `attachment; filename="${file.fileName}"` },
    body: file.bytes,
  });
  const text = await response.text();
  if (RESTARTED.test(text) && restarts < 2) return importAttack(server, file, restarts + 1);
  const body = JSON.parse(text);
  const noted = restarts > 0 ? ` (sent ${restarts + 1} times: the local worker restarted)` : '';
  if (response.status !== 202) return { outcome: `${response.status} ${body.errors?.[0]?.message ?? body.detail}${noted}` };
  for (;;) {
    const read = await (
      await fetch(`${server.url}${attacker.base}/corePatterns/importDataInfos/${body.id}`, { headers: attacker.headers })
    ).json();
    if (read.importDataState >= 3) return { outcome: `state ${read.importDataState}: ${read.error ?? read.detailLog}` };
    await sleep(100);
  }
}

async function renderAttacks(server) {
  const attacker = await client(server, 'render');
  const send = async (method, url, body) => {
    const response = await fetch(`${server.url}${attacker.base}${url}`, {
      method,
      headers: { ...attacker.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  };
  const template = (templateKey, notificationBody) =>
    send('POST', '/operations/emailTemplates', {
      templateKey,
      subject: 'S',
      emailTemplateType: 'HTML',
      notificationBody,
      culture: 'en-US',
    });
  await template('amplifier', '{{a}}'.repeat(104_000));
  await template('mega', '{{a}}'.repeat(250));
  const value = { parameters: [{ name: 'a', value: 'x'.repeat(4000) }] };
  const batch = (key) => ({
    requests: Array.from({ length: 100 }, (_, index) => ({
      id: `r${index}`,
      method: 'POST',
      url: `operations/emailTemplates/${key}/render`,
      body: value,
    })),
  });
  return [
    ['render-416mb', () => send('POST', '/operations/emailTemplates/amplifier/render', value)],
    ['batch-100-amplifying-renders', () => send('POST', '/$batch', batch('amplifier'))],
    ['batch-100-renders-of-1mb', () => send('POST', '/$batch', batch('mega'))],
  ].map(([name, run]) => [name, async () => ({ outcome: JSON.stringify(await run()) })]);
}

async function attackServer(runtime, port) {
  const state = mkdtempSync(path.join(os.tmpdir(), `erp-attacks-${runtime}-`));
  console.error(`attacks: starting ${runtime} on ${port} (state ${state})`);
  const server = await startServer(runtime, port, state);
  const results = [];
  try {
    const bystander = await client(server, 'bystander');
    const attacks = [
      ...buildAttackFiles().map((file) => [file.name, () => importAttack(server, file)]),
      ...(await renderAttacks(server)),
      ['csv-within-bounds-10k-rows', () => importAttack(server, withinBounds())],
    ];
    for (const [name, attack] of attacks) {
      const measured = await measure(server, bystander, attack);
      console.error(`  ${runtime} ${name}: ${JSON.stringify(measured)}`);
      results.push({ name, ...measured });
    }
  } finally {
    await server.stop();
    rmSync(state, { recursive: true, force: true });
  }
  return results;
}

/** A file within every bound, for comparison: 10,000 valid rows. */
function withinBounds() {
  const rows = Array.from({ length: 10_000 }, (_, index) => `k${index},Subject ${index},HTML,Body {{a}} ${index},en-US`);
  return { bytes: new TextEncoder().encode(`${CSV_HEADER}\n${rows.join('\n')}\n`), contentType: 'text/csv', fileName: 'ok.csv' };
}

export async function runAttacks({ save }) {
  const figures = {
    measured: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os.loadavg()[0].toFixed(1)}`,
    workerd: await attackServer('workerd', Number(process.env.BENCH_ATTACKS_PORT ?? 18841)),
    deno: await attackServer('deno', Number(process.env.BENCH_ATTACKS_DENO_PORT ?? 18842)),
  };
  console.log(JSON.stringify(figures, null, 2));
  if (save) writeFileSync(path.join(root, 'bench/results/attacks.json'), `${JSON.stringify(figures, null, 2)}\n`);
}
