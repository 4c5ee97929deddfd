#!/usr/bin/env node
// Write paths alone: node bench/write-paths.mjs [--quick]. Create beside the raw Worker's INSERT, and KPI ingestion
// rows/s in batches of 5000 beside the raw Worker's json_each INSERT. Also part of npm run bench.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintToken, ORG, placeRawTenant, SECRET, TENANT } from './lib/fixtures.mjs';
import { startApiAndRaw } from './lib/servers.mjs';
import { measureCreate, measureIngestion } from './lib/write-paths.mjs';

const quick = process.argv.includes('--quick');
const state = mkdtempSync(path.join(os.tmpdir(), 'erp-write-bench-'));
const { api, raw } = await startApiAndRaw(state, { JWT_SECRET: SECRET });
await placeRawTenant(raw);
try {
  const token = await mintToken();
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const base = `${api.url}/api/${TENANT}/${ORG}`;
  const ingestion = await measureIngestion({ api, raw, token, tenant: TENANT, org: ORG, count: quick ? 4 : 20 });
  const figure = (side) => `${Math.round(side.rowsPerSecond)} rows/s (${side.batches} x 5000 in ${side.seconds.toFixed(1)} s)`;
  console.log(
    `ingestion: API ${figure(ingestion.api)}, raw ${figure(ingestion.raw)}, ratio ${(ingestion.api.rowsPerSecond / ingestion.raw.rowsPerSecond).toFixed(3)}`,
  );
  const create = await measureCreate({ raw, base, auth, tenant: TENANT, org: ORG, rounds: quick ? 2 : 3, seconds: quick ? 2 : 5 });
  console.log(
    `create: API ${create.api.rps.toFixed(1)} req/s (p50 ${create.api.p50} ms), raw ${create.raw.rps.toFixed(1)} req/s (p50 ${create.raw.p50} ms), ratio ${(create.api.rps / create.raw.rps).toFixed(3)}, failed ${create.api.failed}/${create.raw.failed}`,
  );
  console.log(
    `create vs INSERT + outbox row: API ${create.apiAgain.rps.toFixed(1)} req/s, raw ${create.rawWithEvent.rps.toFixed(1)} req/s, ratio ${(create.apiAgain.rps / create.rawWithEvent.rps).toFixed(3)}`,
  );
} finally {
  await Promise.all([api.stop(), raw.stop()]);
  rmSync(state, { recursive: true, force: true });
}
