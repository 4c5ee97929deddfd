#!/usr/bin/env node
// npm run bench [-- --quick | --full | --scale [--scale-rows=N] [--scale-lists] | --webhooks | --live [--deno]] [-- --batch]
// [-- --imports [--imports-rows=N]] [-- --attacks] [-- --save]
// (--help: the options): the API and a raw baseline worker side by side, same runtime and bindings. --scale runs only
// the list scenarios at 10,000 and 1,000,000 rows (bench/lib/scale.mjs, bench/lib/scale-lists.mjs); --batch only the
// $batch scenarios (bench/lib/batch.mjs). Prints a markdown table; with --save it also writes
// bench/results/latest.json (scale.json for --scale: the committed figures the README quotes), otherwise those files
// are left alone. Timing is not a test.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAttacks } from './lib/attacks.mjs';
import { measureBatch } from './lib/batch.mjs';
import { measureImports } from './lib/imports.mjs';
import { measureLive } from './lib/live.mjs';
import { startDenoServer } from './lib/deno-server.mjs';
import { measureBackgroundJobs } from './lib/jobs.mjs';
import { measureCron } from './lib/cron.mjs';
import { countAnswers, readAnswerCounts } from './lib/watch.mjs';
import { RUNTIME_VERSIONS } from '../scripts/local-runtime.mjs';
import { compareRounds, readRestartedInRounds } from './lib/load.mjs';
import { loadTemplateRows, mintToken, ORG, placeRawTenant, SECRET, send, sendAdmin, TENANT } from './lib/fixtures.mjs';
import { startApiAndRaw } from './lib/servers.mjs';
import { measureRecalculation } from './lib/kpi.mjs';
import { compareMembership, MEMBERS_PER_REQUEST } from './lib/members.mjs';
import { measureRestore } from './lib/restore.mjs';
import { runScaleSuite } from './lib/scale.mjs';
import { measureWebhooks } from './lib/webhooks.mjs';
import { createLoad, measureCreate, measureIngestion, rawCreateLoad, templateBody } from './lib/write-paths.mjs';

const argv = process.argv.slice(2);
const args = new Set(argv);
const USAGE = `npm run bench [-- options]
  (none)            standard run: 3 alternating rounds of 5 s per scenario, 10,000 -> 200,000 rows, 100,000 measurements
  --quick           2 rounds of 2 s (with --scale: 1 round of 1 s), 10,000 -> 50,000 rows, 20,000 measurements
  --full            the standard run with 1,000,000 KPI measurements
  --webhooks        only the webhook scenarios (writes bench/results/webhooks.json)
  --live            only live streams (bench/lib/live.mjs): commit-to-client latency p50/p99 with 1, 100 and 1,000
                    Server-Sent Events clients on one tenant/org, and its write throughput with them against none
                    (writes bench/results/live.json with --save); --live-clients=1,100 other counts; --deno on the
                    Deno server instead of wrangler dev (bench/results/live-deno.json)
  --scale           only the list scenarios, at 10,000 then 1,000,000 rows per tenant/org: email templates (get by key,
                    filtered page, deep page, $count, contains, $orderby), then routes (with members), exchange rates
                    documents and email templates: $orderby on every sortable property asc and desc, issue 26's
                    multi-key orders, get by key, a filtered page (1M-row vs 10k-row tenant/org, alternating rounds)
  --scale-rows=N    (or --scale-rows N) the large size of --scale instead of 1,000,000
  --scale-lists     with --scale: only the per-list first pages (routes, exchange rates documents, email templates);
                    with --save, replaces only 'lists' in bench/results/scale.json (the growth figures are kept)
  --restore         only snapshot and point-in-time restore of one tenant/org: restores in place (only the changed
                    rows written) and a rebuild into an empty tenant/org, in rows/s (bench/lib/restore.mjs;
                    --restore-rows=N rows, 100,000 unless told; writes bench/results/restore.json with --save; runs
                    on the newest workerd installed, BENCH_WORKERD=wrangler for wrangler's own)
  --imports         only background jobs (issues 29, 42): a routes CSV imported (upload + Workflow), reverted and a second
                    one cancelled, rows/s and the ratio to the raw json_each INSERT/DELETE floor; a snapshot, restore
                    and move; the slowest answer of other requests during each and the runtime's memory (writes
                    bench/results/imports.json with --save; imports-1m.json for 1,000,000 rows)
  --imports-rows=N  the CSV's rows for --imports (default 100,000; the issue's target is 1,000,000)
  --jobs-rows=N     with --imports: email templates of the tenant/org that is snapshot, restored and moved (20,000)
  --cron            only the cron path: GET /__scheduled three times in a row on --cron-orgs=N tenant/orgs (140) of
                    --cron-rows=N email templates each (10,000), each call timed with the slowest other answer
                    (writes bench/results/cron.json with --save)
  --attacks         only issue 41's attack requests (bench/lib/attacks.mjs), against npm start (workerd) and
                    npm run start:deno, each on a port and state of its own: time to the refusal, the runtime's
                    resident memory (before, highest, after), the slowest /health and other tenant's answer meanwhile
                    (writes bench/results/attacks.json with --save)
  --save            write the figures to bench/results/latest.json (scale.json with --scale)
  --help            this text`;
if (args.has('--help') || args.has('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const quick = args.has('--quick');
/** Only the webhook scenarios (write throughput with 0 and 3 subscriptions, delivery latency). */
const webhooksOnly = args.has('--webhooks');
/** Only live streams (latency with 1, 100 and 1,000 clients; write throughput with them against none). */
const liveOnly = args.has('--live');
/** Only the $batch scenarios (100 creates per batch against single creates). */
const batchOnly = args.has('--batch');
/** Only the file import scenarios (a routes CSV imported and reverted, beside the raw json_each INSERT). */
const importsOnly = args.has('--imports');
/** Only the cron path: GET /__scheduled three times on many tenant/orgs with rows. */
const cronOnly = args.has('--cron');
const full = args.has('--full');
const scale = args.has('--scale');
const scaleListsOnly = args.has('--scale-lists');
const scaleRows = readScaleRows();
const save = args.has('--save');
const restoreOnly = args.has('--restore');
const restoreRows = Number(argv.find((arg) => arg.startsWith('--restore-rows='))?.split('=')[1] ?? 100_000);
const RESULTS = 'bench/results/latest.json';
const settings = quick
  ? { rounds: 2, seconds: 2, small: 10_000, large: 50_000, measurements: 20_000, ingestBatches: 4 }
  : { rounds: 3, seconds: 5, small: 10_000, large: 200_000, measurements: full ? 1_000_000 : 100_000, ingestBatches: 20 };

const root = fileURLToPath(new URL('..', import.meta.url));
const state = mkdtempSync(path.join(os.tmpdir(), 'erp-bench-'));

/** The runtime every mode runs on (scripts/local-runtime.mjs: Miniflare's own API, no dev proxy). */
const workerd = `workerd ${RUNTIME_VERSIONS.workerd} (miniflare ${RUNTIME_VERSIONS.miniflare})`;
countAnswers();
const scenarios = [];

function record(name, measured, baseline, baselineName) {
  const entry = {
    name,
    rps: round(measured.rps),
    p50_ms: measured.p50,
    p99_ms: measured.p99,
    baseline: baseline ? { name: baselineName, rps: round(baseline.rps), p50_ms: baseline.p50, p99_ms: baseline.p99 } : null,
    ratio: baseline ? round(measured.rps / baseline.rps, 3) : null,
    failed: measured.failed,
  };
  scenarios.push(entry);
  console.error(
    `  ${name}: ${entry.rps} req/s (p50 ${entry.p50_ms} ms, p99 ${entry.p99_ms} ms)${entry.ratio === null ? '' : `, ratio ${entry.ratio}`}${entry.failed ? `, ${entry.failed} FAILED` : ''}`,
  );
}

function round(value, digits = 1) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** `--live --deno`: live streams measured on the Deno server (no wrangler dev proxy in front). */
async function measureLiveOnDeno() {
  const api = await startDenoServer(state, { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '0' });
  try {
    const counts = (argv.find((arg) => arg.startsWith('--live-clients='))?.split('=')[1] ?? '1,100,1000').split(',').map(Number);
    const live = await measureLive({
      api,
      token: await mintToken(),
      createLoad,
      rounds: settings.rounds,
      seconds: settings.seconds,
      counts,
    });
    const result = {
      live,
      settings: { mode: 'live', runtime: 'deno', ...settings },
      machine: describeMachine(),
      date: new Date().toISOString(),
    };
    console.log(JSON.stringify(result, null, 2));
    if (save) writeFileSync(path.join(root, 'bench/results/live-deno.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await api.stop();
    rmSync(state, { recursive: true, force: true });
  }
}

async function main() {
  if (liveOnly && args.has('--deno')) return measureLiveOnDeno();
  console.error(`bench: ${scale ? `scale (${scaleRows} rows)` : quick ? 'quick' : full ? 'full' : 'standard'} run, state in ${state}`);
  // Webhooks go to a receiver on 127.0.0.1 (the development flag).
  const { api, raw, bare } = await startApiAndRaw(
    state,
    { JWT_SECRET: SECRET, WEBHOOKS_ALLOW_LOCAL_HTTP: 'true' },
    { bare: !scale && !webhooksOnly && !batchOnly && !restoreOnly && !importsOnly && !liveOnly && !cronOnly },
  );
  try {
    await placeRawTenant(raw, bare);
    const token = await mintToken();
    if (restoreOnly) {
      const figures = await measureRestore({ api, token, rows: restoreRows, templateBody });
      const result = {
        restore: figures,
        settings: { mode: 'restore', rows: restoreRows, workerd },
        machine: describeMachine(),
        date: new Date().toISOString(),
      };
      console.log(JSON.stringify(result, null, 2));
      if (save) writeFileSync(path.join(root, 'bench/results/restore.json'), `${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    if (scale) {
      const settings = { rounds: quick ? 1 : 3, seconds: quick ? 1 : 3, small: 10_000, large: scaleRows, listsOnly: scaleListsOnly };
      const { growth, lists } = await runScaleSuite({ api, raw, token, record, settings });
      const result = {
        scenarios,
        growth,
        lists,
        settings: { mode: 'scale', ...settings },
        machine: describeMachine(),
        date: new Date().toISOString(),
      };
      printTable(result);
      if (save) writeFileSync(path.join(root, 'bench/results/scale.json'), `${JSON.stringify(mergeScaleResult(result), null, 2)}\n`);
      return;
    }
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const base = `${api.url}/api/${TENANT}/${ORG}`;
    const opts = [settings.rounds, settings.seconds];

    if (batchOnly) {
      await recordBatch(base, auth, opts);
      const result = { scenarios, settings: { mode: 'batch', ...settings }, machine: describeMachine(), date: new Date().toISOString() };
      printTable(result);
      if (save) writeFileSync(path.join(root, 'bench/results/batch.json'), `${JSON.stringify(result, null, 2)}\n`);
      return;
    }

    if (cronOnly) {
      const orgs = readRowsOption('--cron-orgs', 140);
      const rows = readRowsOption('--cron-rows', 10_000);
      const targets = [
        { name: 'health', url: `${api.url}/health` },
        {
          name: 'other tenant/org',
          url: `${api.url}/api/${TENANT}/other/referenceData/companies`,
          headers: { authorization: `Bearer ${token}` },
        },
      ];
      const cron = await measureCron({ api, token, orgs, rows, targets });
      const result = {
        cron,
        answers: readAnswerCounts(),
        settings: { mode: 'cron', orgs, rows, workerd },
        machine: describeMachine(),
        date: new Date().toISOString(),
      };
      console.log(JSON.stringify(result, null, 2));
      if (save) writeFileSync(path.join(root, 'bench/results/cron.json'), `${JSON.stringify(result, null, 2)}\n`);
      return;
    }

    if (importsOnly) {
      const rows = readRowsOption('--imports-rows', 100_000);
      const jobsRows = readRowsOption('--jobs-rows', 20_000);
      const measured = await measureImports({ api, raw, token, base, auth, rows });
      const targets = [
        { name: 'health', url: `${api.url}/health` },
        {
          name: 'other tenant/org',
          url: `${api.url}/api/${TENANT}/other/referenceData/companies`,
          headers: { authorization: `Bearer ${token}` },
        },
      ];
      const jobs = await measureBackgroundJobs({ api, token, rows: jobsRows, targets });
      const result = {
        imports: measured,
        jobs,
        answers: readAnswerCounts(),
        settings: { mode: 'imports', rows, jobs_rows: jobsRows, workerd },
        machine: describeMachine(),
        date: new Date().toISOString(),
      };
      printImports(result);
      console.log(JSON.stringify(result, null, 2));
      // 100,000 rows (the default): imports.json; another count beside it (1,000,000: imports-1m.json).
      const file = rows === 100_000 ? 'imports.json' : `imports-${rows % 1_000_000 === 0 ? `${rows / 1_000_000}m` : rows}.json`;
      if (save) writeFileSync(path.join(root, 'bench/results', file), `${JSON.stringify(result, null, 2)}\n`);
      return;
    }

    if (liveOnly) {
      const counts = (argv.find((arg) => arg.startsWith('--live-clients='))?.split('=')[1] ?? '1,100,1000').split(',').map(Number);
      const live = await measureLive({ api, token, createLoad, rounds: settings.rounds, seconds: settings.seconds, counts });
      const result = { live, settings: { mode: 'live', ...settings, workerd }, machine: describeMachine(), date: new Date().toISOString() };
      console.log(JSON.stringify(result, null, 2));
      if (save) writeFileSync(path.join(root, 'bench/results/live.json'), `${JSON.stringify(result, null, 2)}\n`);
      return;
    }

    if (webhooksOnly) {
      const webhooks = await recordWebhooks(api, token, auth, opts);
      const result = { scenarios, webhooks, settings: { mode: 'webhooks', ...settings }, date: new Date().toISOString() };
      writeFileSync(path.join(root, 'bench/results/webhooks.json'), `${JSON.stringify(result, null, 2)}\n`);
      console.log(JSON.stringify(result, null, 2));
      return;
    }

    let h = await compareRounds({ url: `${api.url}/health` }, { url: `${raw.url}/constant` }, ...opts);
    record('health vs constant', h.a, h.b, 'constant');

    // The API's bench tenant/org is placed by its first write; its rows are then loaded into that database.
    await send(api, token, 'POST', '/operations/emailTemplates', templateBody('placed'));
    const home = (await sendAdmin(api, 'GET', `/admin/placements/${TENANT}/${ORG}`)).database;
    const load = async (from, to) => {
      await loadTemplateRows(api, home, from, to);
      await loadTemplateRows(raw, 'DB', from, to);
      await loadTemplateRows(bare, 'DB', from, to);
    };
    await load(1, settings.small);
    const point = { url: `${base}/operations/emailTemplates/tpl-5`, headers: auth };
    const rawPoint = { url: `${raw.url}/d1/point?tenant=${TENANT}&org=${ORG}&key=tpl-5` };
    const page = {
      url: `${base}/operations/emailTemplates/odata?$filter=${encodeURIComponent("culture eq 'pt-PT'")}&$orderby=createdOn&$top=50`,
      headers: auth,
    };
    const rawPage = { url: `${raw.url}/d1/page?tenant=${TENANT}&org=${ORG}&culture=pt-PT` };
    h = await compareRounds(point, rawPoint, ...opts);
    record(`get by key (${settings.small} rows)`, h.a, h.b, 'D1 point read');
    const small = { point: h.a, rawPoint: h.b };
    h = await compareRounds(page, rawPage, ...opts);
    record(`OData page of 50, filtered and ordered (${settings.small} rows)`, h.a, h.b, 'D1 50-row read');
    small.page = h.a;
    small.rawPage = h.b;

    // Write paths (issue 16): a create beside the raw Worker's one INSERT.
    const create = await measureCreate({ raw, base, auth, tenant: TENANT, org: ORG, rounds: settings.rounds, seconds: settings.seconds });
    record('create (email template)', create.api, create.raw, 'D1 INSERT');
    record('create (email template), same writes', create.apiAgain, create.rawWithEvent, 'D1 INSERT + outbox row, one batch');
    const webhooks = await recordWebhooks(api, token, auth, opts);
    await recordBatch(base, auth, opts);

    // The same three against the bare raw Worker (no static-assets routing in front): the issue's baseline as it was
    // first measured, and what the routing (miniflare's asset proxy and router Workers, locally) costs.
    h = await compareRounds({ url: `${api.url}/health` }, { url: `${bare.url}/constant` }, ...opts);
    record('health vs constant, bare raw Worker', h.a, h.b, 'constant, no static-assets routing');
    h = await compareRounds(point, { ...rawPoint, url: rawPoint.url.replace(raw.url, bare.url) }, ...opts);
    record(`get by key (${settings.small} rows), bare raw Worker`, h.a, h.b, 'D1 point read, no static-assets routing');
    h = await compareRounds(createLoad(base, auth), rawCreateLoad(bare, TENANT, ORG), ...opts);
    record('create (email template), bare raw Worker', h.a, h.b, 'D1 INSERT, no static-assets routing');

    // Two tenant/orgs creating at once (4 connections each): both on one tenant database, then on two.
    const [firstDb, secondDb] = (await sendAdmin(api, 'GET', '/admin/databases')).items.map((item) => item.database);
    const pair = { w1: firstDb, w2: firstDb, w3: secondDb };
    for (const [org, database] of Object.entries(pair)) {
      await send(api, token, 'POST', '/operations/emailTemplates', templateBody('placed'), `/api/pair/${org}`);
      await sendAdmin(api, 'POST', `/admin/placements/pair/${org}/move`, { database });
    }
    const writer = (org) => ({ ...createLoad(`${api.url}/api/pair/${org}`, auth), connections: 4 });
    h = await compareRounds({ group: [writer('w1'), writer('w2')] }, { group: [writer('w1'), writer('w3')] }, ...opts);
    record('two tenant/orgs creating at once, both on one database', h.a);
    record('two tenant/orgs creating at once, on two databases', h.b, h.a, 'both on one database');
    h = await compareRounds(
      { url: `${base}/operations/emailTemplates/tpl-7/subject`, method: 'PUT', headers: auth, body: '"Updated"' },
      undefined,
      ...opts,
    );
    record('attribute PUT (subject)', h.a);

    await send(api, token, 'POST', '/businessCore/exchangeRatesDocuments', {
      number: 1,
      validFrom: '2026-01-01T00:00:00Z',
      exchangeRateType: 1,
      isExternallyManaged: false,
      exchangeRateDocumentRates: [{ fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.0834 }],
    });
    const lookupBody = JSON.stringify({ currencyFromKey: 'EUR', currencyToKey: 'USD', referencedDate: '2026-06-01T00:00:00Z' });
    await fetch(`${raw.url}/kv/put?key=bench`, {
      method: 'POST',
      body: JSON.stringify({
        currencyFromKey: 'EUR',
        currencyToKey: 'USD',
        exchangeRate: 1.0834,
        exchangeRateDate: '2026-01-01T00:00:00.000Z',
      }),
    });
    h = await compareRounds(
      { url: `${base}/businessCore/exchangeRatesDocuments/getCurrencyExchangeRates`, method: 'POST', headers: auth, body: lookupBody },
      { url: `${raw.url}/kv?key=bench` },
      ...opts,
    );
    record('cached exchange-rate lookup', h.a, h.b, 'KV read');

    const importId = await send(api, token, 'POST', '/corePatterns/importDataInfos', { importDataTemplate: 'bench' });
    await send(api, token, 'POST', '/corePatterns/importDataInfos/changeDataImport', { importId, importDataState: 2 });
    h = await compareRounds(
      {
        url: `${base}/corePatterns/importDataInfos/changeDataImport`,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ importId, importDataState: 2, detailLog: 'progress' }),
      },
      undefined,
      ...opts,
    );
    record('changeDataImport (progress)', h.a);

    // Write paths (issue 16): KPI ingestion rows/s, batches of 5000, beside the raw Worker's one json_each INSERT.
    const ingestion = await measureIngestion({ api, raw, token, tenant: TENANT, org: ORG, count: settings.ingestBatches });
    scenarios.push({
      name: `KPI ingestion, ${ingestion.api.batches} batches of 5000`,
      rows_per_s: Math.round(ingestion.api.rowsPerSecond),
      baseline: { name: 'D1 json_each INSERT', rows_per_s: Math.round(ingestion.raw.rowsPerSecond) },
      ratio: round(ingestion.api.rowsPerSecond / ingestion.raw.rowsPerSecond, 3),
    });
    console.error(
      `  KPI ingestion: ${Math.round(ingestion.api.rowsPerSecond)} rows/s (raw ${Math.round(ingestion.raw.rowsPerSecond)} rows/s)`,
    );

    const kpi = await measureRecalculation(api, token, settings.measurements);
    h = await compareRounds(
      { url: `${base}/maintenance/indicators/getIndicatorSummaryByCode/${kpi.company}/${kpi.code}`, headers: auth },
      undefined,
      ...opts,
    );
    record('indicator summary', h.a);
    scenarios.push({
      name: `KPI recalculation of ${settings.measurements} measurements`,
      rps: null,
      p50_ms: null,
      p99_ms: null,
      seconds: kpi.seconds,
      ingest_seconds: kpi.ingestSeconds,
      baseline: null,
      ratio: null,
    });
    console.error(`  KPI recalculation of ${settings.measurements}: ${kpi.seconds} s (ingest ${kpi.ingestSeconds} s)`);

    // Route membership: 100 members added or removed per request, beside the raw Worker's single batch (bench/lib/members.mjs).
    const members = await compareMembership({ api, raw, token, rounds: settings.rounds, seconds: settings.seconds });
    record(`route members add/remove, ${MEMBERS_PER_REQUEST} per request`, members.api, members.raw, 'one D1 batch, same checks');
    record(
      `route members add/remove, ${MEMBERS_PER_REQUEST} per request, same writes`,
      members.apiAgain,
      members.rawWithEvent,
      'one D1 batch, same checks + outbox row',
    );

    await load(settings.small + 1, settings.large);
    h = await compareRounds(point, rawPoint, ...opts);
    record(`get by key (${settings.large} rows)`, h.a, h.b, 'D1 point read');
    const pointLoss = 1 - h.a.rps / small.point.rps;
    const rawPointLoss = 1 - h.b.rps / small.rawPoint.rps;
    h = await compareRounds(page, rawPage, ...opts);
    record(`OData page of 50, filtered and ordered (${settings.large} rows)`, h.a, h.b, 'D1 50-row read');
    const pageLoss = 1 - h.a.rps / small.page.rps;
    const rawPageLoss = 1 - h.b.rps / small.rawPage.rps;

    const result = {
      scenarios,
      webhooks,
      growth: {
        rows: [settings.small, settings.large],
        get_by_key_throughput_loss: round(pointLoss, 3),
        odata_page_throughput_loss: round(pageLoss, 3),
        raw_point_read_throughput_loss: round(rawPointLoss, 3),
        raw_page_read_throughput_loss: round(rawPageLoss, 3),
      },
      settings: { mode: quick ? 'quick' : full ? 'full' : 'standard', ...settings },
      machine: describeMachine(),
      date: new Date().toISOString(),
    };
    printTable(result);
    if (save) {
      writeFileSync(path.join(root, RESULTS), `${JSON.stringify(result, null, 2)}\n`);
      console.error(`bench: wrote ${RESULTS}`);
    } else console.error(`bench: ${RESULTS} left as it was (add --save to write these figures there)`);
  } finally {
    const answers = readAnswerCounts();
    // No dev proxy in front of workerd (scripts/local-runtime.mjs): its 503 "worker restarted mid-request" is counted,
    // never retried away (autocannon's rounds count theirs in bench/lib/load.mjs).
    console.error(
      `bench: ${answers.total} answers to fetch, ${answers.status503} with 503, ${answers.restarted} of them "worker restarted mid-request"; load rounds: ${readRestartedInRounds()} such 503s`,
    );
    await Promise.all([api.stop(), raw.stop(), bare?.stop()]);
    rmSync(state, { recursive: true, force: true });
  }
}

/** The --imports summary: every job's rows/s, ratio to the floor, slowest other answer and the runtime's memory. */
function printImports(result) {
  const { imports, jobs, answers } = result;
  const slow = (watched) =>
    Object.entries(watched.slowest_other ?? {})
      .map(([name, probe]) => `${name} ${probe.max_ms} ms (${probe.over_1s}/${probe.count} over 1 s)`)
      .join('; ');
  const memory = (watched) => (watched.memory?.peak_mib ? `${watched.memory.peak_mib} MiB peak, ${watched.memory.mean_mib} mean` : '');
  const lines = [
    `| job | rows | seconds | rows/s | floor rows/s | ratio | answer ms | own status: slowest poll, longest unchanged | slowest other answers | workerd RSS |`,
    '|---|---:|---:|---:|---:|---:|---:|---|---|---|',
    `| import | ${imports.rows} | ${imports.import.seconds} | ${imports.import.rows_per_s} | ${imports.floor.insert.rows_per_s} | ${imports.import.ratio_to_floor} | | ${imports.import.poll_max_ms} ms, ${imports.import.longest_unchanged_s} s | ${slow(imports.import)} | ${memory(imports.import)} |`,
    `| revert | ${imports.rows} | ${imports.revert.seconds} | ${imports.revert.rows_per_s} | ${imports.floor.delete.rows_per_s} | ${imports.revert.ratio_to_floor} | ${imports.revert.answer_ms} | ${imports.revert.poll_max_ms} ms, ${imports.revert.longest_unchanged_s} s | ${slow(imports.revert)} | ${memory(imports.revert)} |`,
    `| cancel (at ${imports.cancel.rows_read_when_cancelled} of ${imports.cancel.rows} rows) | ${imports.cancel.rows_undone} undone | ${imports.cancel.seconds} | | | | ${imports.cancel.answer_ms} | ${imports.cancel.poll_max_ms} ms, ${imports.cancel.longest_unchanged_s} s | ${slow(imports.cancel)} | ${memory(imports.cancel)} |`,
    ...['snapshot', 'restore', 'move'].map(
      (name) =>
        `| ${name} | ${jobs.rows} | ${jobs[name].seconds} | | | | ${jobs[name].answer_ms ?? ''} | | ${slow(jobs[name])} | ${memory(jobs[name])} |`,
    ),
    '',
    `Answers: ${answers.total} in all, ${answers.status503} with 503, ${answers.restarted} "worker restarted mid-request".`,
  ];
  console.log(lines.join('\n'));
}

/** A `--scale-lists` result replaces only the stored run's `lists` (and says when they were measured). */
function mergeScaleResult(result) {
  if (!result.settings.listsOnly) return result;
  const file = path.join(root, 'bench/results/scale.json');
  const stored = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  return { ...stored, lists: result.lists, lists_run: { settings: result.settings, machine: result.machine, date: result.date } };
}

/** The large size of --scale: `--scale-rows=N` or `--scale-rows N` (at least 10,001: above the small size), else 1,000,000. */
function readScaleRows() {
  const index = argv.findIndex((arg) => arg === '--scale-rows' || arg.startsWith('--scale-rows='));
  if (index < 0) return 1_000_000;
  const text = argv[index].includes('=') ? argv[index].split('=')[1] : argv[index + 1];
  const rows = Number(text);
  if (!Number.isInteger(rows) || rows <= 10_000) {
    console.error(`bench: --scale-rows must be an integer above 10,000 (the small size), not ${text}`);
    process.exit(2);
  }
  return rows;
}

/** An integer option `--name=N` (or `--name N`) of at least 1. */
function readRowsOption(name, fallback) {
  const index = argv.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (index < 0) return fallback;
  const text = argv[index].includes('=') ? argv[index].split('=')[1] : argv[index + 1];
  const rows = Number(text);
  if (!Number.isInteger(rows) || rows < 1) {
    console.error(`bench: ${name} must be a positive integer, not ${text}`);
    process.exit(2);
  }
  return rows;
}

function describeMachine() {
  return {
    platform: `${os.type()} ${os.release()}`,
    arch: os.arch(),
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memory_gb: round(os.totalmem() / 2 ** 30),
    node: process.version,
    load_average: os.loadavg().map((value) => round(value, 2)),
  };
}

/** Creates in a tenant/org without and with 3 subscriptions, then the delivery latency of the latter's events. */
async function recordWebhooks(api, token, auth, opts) {
  const measured = await measureWebhooks(api, token, (base) => createLoad(base, auth), ...opts);
  record('create, 0 subscriptions', measured.writes.a);
  record('create, 3 subscriptions', measured.writes.b, measured.writes.a, '0 subscriptions');
  const d = measured.delivery;
  console.error(
    `  delivery: ${d.received} of ${d.expected_deliveries} deliveries (${d.events} events x 3) in ${d.notifications} POSTs, latency p50 ${d.latency_p50_ms} ms, p99 ${d.latency_p99_ms} ms`,
  );
  return d;
}

/** 100 creates per $batch (no group, one atomic group) against single creates, records/s (bench/lib/batch.mjs). */
async function recordBatch(base, auth, opts) {
  for (const measured of await measureBatch({ base, auth, rounds: opts[0], seconds: opts[1] })) {
    if (measured.skipped) {
      console.error(`  ${measured.name}: not measured (${measured.skipped})`);
      scenarios.push({ name: measured.name, skipped: measured.skipped });
      continue;
    }
    scenarios.push({
      name: measured.name,
      rows_per_s: Math.round(measured.records_per_s),
      baseline: { name: 'single creates, same connections', rows_per_s: Math.round(measured.single_records_per_s) },
      ratio: round(measured.ratio, 2),
      batch_p50_ms: measured.batch.p50,
      batch_p99_ms: measured.batch.p99,
      failed: measured.batch.failed + measured.single.failed,
      // What the failed answers were, by status: batch (`batch <status>`: a whole $batch answer) and single creates.
      failed_statuses: { batch: measured.batch.failed_statuses, single: measured.single.failed_statuses },
    });
    console.error(
      `  ${measured.name}: ${Math.round(measured.records_per_s)} records/s (batch p50 ${measured.batch.p50} ms, p99 ${measured.batch.p99} ms) vs ${Math.round(measured.single_records_per_s)} single creates/s: ${round(measured.ratio, 2)}x; failed answers by status: ${JSON.stringify({ batch: measured.batch.failed_statuses, single: measured.single.failed_statuses })}`,
    );
  }
}

function printTable(result) {
  const lines = [
    '| scenario | req/s | p50 ms | p99 ms | baseline | baseline req/s | ratio | failed |',
    '|---|---:|---:|---:|---|---:|---:|---:|',
  ];
  for (const s of result.scenarios) {
    if (s.skipped !== undefined) lines.push(`| ${s.name} | not measured: ${s.skipped} | | | | | | |`);
    else if (s.seconds !== undefined) lines.push(`| ${s.name} | ${s.seconds} s (ingest ${s.ingest_seconds} s) | | | | | | |`);
    else if (s.rows_per_s !== undefined)
      lines.push(
        `| ${s.name} | ${s.rows_per_s} rows/s | ${s.batch_p50_ms ?? ''} | ${s.batch_p99_ms ?? ''} | ${s.baseline.name} | ${s.baseline.rows_per_s} rows/s | ${s.ratio} | ${s.failed ?? ''} |`,
      );
    else
      lines.push(
        `| ${s.name} | ${s.rps} | ${s.p50_ms} | ${s.p99_ms} | ${s.baseline?.name ?? ''} | ${s.baseline?.rps ?? ''} | ${s.ratio ?? ''} | ${s.failed} |`,
      );
  }
  if (result.settings.mode === 'batch') {
    console.log(lines.join('\n'));
    return;
  }
  if (result.settings.mode === 'scale') {
    lines.push(
      '',
      `Throughput loss from ${result.settings.small} to ${result.settings.large} rows (API, one phase after the other / raw worker, the same / API, ${result.settings.large}-row vs ${result.settings.small}-row tenant/org in alternating rounds):`,
    );
    for (const [name, loss] of Object.entries(result.growth ?? {}))
      lines.push(
        `- ${name}: ${(loss.api_loss * 100).toFixed(1)}% / ${(loss.raw_loss * 100).toFixed(1)}% / ${(loss.api_loss_alternating * 100).toFixed(1)}%`,
      );
    for (const [list, section] of Object.entries(result.lists ?? {})) {
      lines.push(
        '',
        `${list}, first page at ${result.settings.large} rows vs ${result.settings.small} (alternating rounds; goal: under 1 s, orders accepted before within 15%):`,
        '',
        '| scenario | served | p50 ms | p99 ms | p50 ms small | loss | under 1 s (p50/p99) | failed |',
        '|---|---|---:|---:|---:|---:|---|---:|',
      );
      for (const [name, s] of Object.entries(section))
        lines.push(
          `| ${name} | ${s.served} | ${s.large.p50_ms} | ${s.large.p99_ms} | ${s.small.p50_ms} | ${s.loss === null ? '' : `${(s.loss * 100).toFixed(1)}%`} | ${s.under_1s === null ? 'no answer' : `${s.under_1s.p50 ? 'yes' : 'NO'}/${s.under_1s.p99 ? 'yes' : 'NO'}`} | ${s.large.failed + s.small.failed} |`,
        );
    }
    console.log(lines.join('\n'));
    return;
  }
  const d = result.webhooks;
  lines.push(
    '',
    `Webhook delivery (3 subscriptions, during and after the write rounds): ${d.received} of ${d.expected_deliveries} deliveries in ${d.notifications} POSTs; commit-to-receiver latency p50 ${d.latency_p50_ms} ms, p99 ${d.latency_p99_ms} ms.`,
    '',
    `Throughput loss from ${result.growth.rows[0]} to ${result.growth.rows[1]} rows: get by key ${(result.growth.get_by_key_throughput_loss * 100).toFixed(1)}%, OData page ${(result.growth.odata_page_throughput_loss * 100).toFixed(1)}% (raw baseline: point read ${(result.growth.raw_point_read_throughput_loss * 100).toFixed(1)}%, 50-row read ${(result.growth.raw_page_read_throughput_loss * 100).toFixed(1)}%).`,
  );
  console.log(lines.join('\n'));
}

if (args.has('--attacks')) {
  rmSync(state, { recursive: true, force: true });
  await runAttacks({ save });
} else await main();
