#!/usr/bin/env node
// KPI recalculation at scale: node bench/kpi-recalc.mjs [N=100000]
// Bundles the Worker once (so edits to src/ during a long run do not restart it), starts `wrangler dev` on a
// free port with fresh local state, ingests N measurements through the API (batches of 5000), times one
// assetsRecalculateKPIs and prints the figures. Not part of npm test.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mintToken, SECRET } from './lib/fixtures.mjs';
import { measureRecalculation } from './lib/kpi.mjs';
import { runWrangler, startWorker } from './lib/servers.mjs';

const count = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(count) || count <= 0) throw new Error(`N must be a positive integer (got ${process.argv[2]})`);

function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A frozen copy of the Worker: the bundle, the migrations and a config pointing at them. */
function snapshotWorker(directory) {
  runWrangler(['deploy', '--dry-run', '--outdir', path.join(directory, 'dist'), '-c', 'wrangler.toml']);
  cpSync('migrations', path.join(directory, 'migrations'), { recursive: true });
  const config = readFileSync('wrangler.toml', 'utf8').replace(/^main = .*$/m, 'main = "dist/index.js"');
  writeFileSync(path.join(directory, 'wrangler.toml'), config);
  return path.join(directory, 'wrangler.toml');
}

const state = mkdtempSync(path.join(os.tmpdir(), 'erp-kpi-bench-'));
const config = snapshotWorker(state);
const api = await startWorker({ config, port: await findFreePort(), persistTo: path.join(state, 'state'), vars: { JWT_SECRET: SECRET }, probePath: '/health' });
try {
  const result = await measureRecalculation(api, await mintToken(), count);
  const figures = { measurements: count, ingestSeconds: result.ingestSeconds, recalculationSeconds: result.seconds };
  console.log(JSON.stringify(figures));
  console.log(`${count} measurements: ingested in ${result.ingestSeconds} s, recalculated in ${result.seconds} s`);
} finally {
  await api.stop();
  rmSync(state, { recursive: true, force: true });
}
