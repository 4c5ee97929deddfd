#!/usr/bin/env node
// KPI recalculation at scale: node bench/kpi-recalc.mjs [N=100000]
// Bundles the Worker once (so edits to src/ during a long run do not restart it), starts `wrangler dev` on a
// free port with fresh local state, ingests N measurements through the API (batches of 5000), times one
// assetsRecalculateKPIs and prints the figures. Not part of npm test.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintToken, SECRET } from './lib/fixtures.mjs';
import { measureRecalculation } from './lib/kpi.mjs';
import { findFreePort, snapshotWorker, startWorker } from './lib/servers.mjs';

const count = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(count) || count <= 0) throw new Error(`N must be a positive integer (got ${process.argv[2]})`);

const state = mkdtempSync(path.join(os.tmpdir(), 'erp-kpi-bench-'));
const config = snapshotWorker(state);
const api = await startWorker({
  config,
  port: await findFreePort(),
  persistTo: path.join(state, 'state'),
  vars: { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '0' },
  probePath: '/health',
});
try {
  const result = await measureRecalculation(api, await mintToken(), count);
  const figures = { measurements: count, ingestSeconds: result.ingestSeconds, recalculationSeconds: result.seconds };
  console.log(JSON.stringify(figures));
  console.log(`${count} measurements: ingested in ${result.ingestSeconds} s, recalculated in ${result.seconds} s`);
} finally {
  await api.stop();
  rmSync(state, { recursive: true, force: true });
}
