#!/usr/bin/env node
// Write paths of this tree against another commit, at the same moment: node bench/compare-writes.mjs [ref] [batches]
// (default ref 86b809e, the point before creates and ingestion became one round trip; 40 batches). Both APIs run
// side by side on fresh local state; ingestion batches of 5000 alternate between them, then creates run in
// alternating rounds, so the load of a shared machine hits both alike. Not part of npm test.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mintToken, ORG, SECRET, send, TENANT } from './lib/fixtures.mjs';
import { compareRounds } from './lib/load.mjs';
import { findFreePort, snapshotWorker, startWorker } from './lib/servers.mjs';
import { buildIngestBatch, createLoad, INGEST_CODES, INGEST_COMPANY, templateBody } from './lib/write-paths.mjs';

const [ref = '86b809e', batchArg = '40'] = process.argv.slice(2);
const batches = Number(batchArg);
const root = fileURLToPath(new URL('..', import.meta.url));
const state = mkdtempSync(path.join(os.tmpdir(), 'erp-compare-'));
const other = path.join(state, 'tree');
mkdirSync(other);
execFileSync('sh', ['-c', `git -C "${root}" archive "${ref}" | tar -x -C "${other}"`]);
symlinkSync(path.join(root, 'node_modules'), path.join(other, 'node_modules'));
const otherServers = await import(pathToFileURL(path.join(other, 'bench/lib/servers.mjs')).href);

const vars = { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '0' };
const [before, after] = await Promise.all([
  otherServers.startWorker({
    config: otherServers.snapshotWorker(path.join(state, 'before')),
    port: await findFreePort(),
    persistTo: path.join(state, 'before-state'),
    vars,
    probePath: '/health',
  }),
  startWorker({
    config: snapshotWorker(path.join(state, 'after')),
    port: await findFreePort(),
    persistTo: path.join(state, 'after-state'),
    vars,
    probePath: '/health',
  }),
]);
try {
  const token = await mintToken();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const api of [before, after]) {
    await send(api, token, 'PUT', '/referenceData/companies', [{ key: INGEST_COMPANY, name: 'Ingestion company', baseCurrency: 'EUR' }]);
    const definitions = INGEST_CODES.map((key) => ({ key, name: key, valueType: 'Number', valueFractionDigits: 2, aggregation: 'avg' }));
    await send(api, token, 'PUT', '/referenceData/kpiDefinitions', definitions);
    await send(api, token, 'POST', '/operations/emailTemplates', templateBody('placed'));
  }
  const spent = new Map([
    [before, 0],
    [after, 0],
  ]);
  // Batch -1 warms both up; the side that goes first alternates.
  for (let index = -1; index < batches; index += 1) {
    const body = JSON.stringify(buildIngestBatch(index + 1));
    for (const api of index % 2 ? [before, after] : [after, before]) {
      const started = performance.now();
      const response = await fetch(`${api.url}/api/${TENANT}/${ORG}/maintenance/indicators/measurements`, {
        method: 'POST',
        headers,
        body,
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${response.status} ${text.slice(0, 300)}`);
      if (index >= 0) spent.set(api, (spent.get(api) ?? 0) + performance.now() - started);
    }
  }
  const rate = (api) => Math.round((batches * 5000) / ((spent.get(api) ?? 1) / 1000));
  console.log(
    `ingestion, ${batches} x 5000 alternating: ${ref} ${rate(before)} rows/s, this tree ${rate(after)} rows/s (${(rate(after) / rate(before)).toFixed(2)}x)`,
  );
  const h = await compareRounds(
    createLoad(`${before.url}/api/${TENANT}/${ORG}`, headers),
    createLoad(`${after.url}/api/${TENANT}/${ORG}`, headers),
    3,
    5,
  );
  console.log(
    `create (email template): ${ref} ${h.a.rps.toFixed(1)} req/s (p50 ${h.a.p50} ms), this tree ${h.b.rps.toFixed(1)} req/s (p50 ${h.b.p50} ms) (${(h.b.rps / h.a.rps).toFixed(2)}x)`,
  );
} finally {
  await Promise.all([before.stop(), after.stop()]);
  rmSync(state, { recursive: true, force: true });
}
