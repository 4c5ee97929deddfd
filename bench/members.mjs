#!/usr/bin/env node
// Route membership at speed: node bench/members.mjs [--quick]
// The API's add/remove of 100 members per request beside the raw Worker's single batch doing the same checks, on
// fresh local state (the same scenario `npm run bench` runs in its own section). Not part of npm test.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintToken, placeRawTenant, SECRET } from './lib/fixtures.mjs';
import { compareMembership, MEMBERS_PER_REQUEST } from './lib/members.mjs';
import { startApiAndRaw } from './lib/servers.mjs';

const quick = process.argv.includes('--quick');
const state = mkdtempSync(path.join(os.tmpdir(), 'erp-members-bench-'));
const { api, raw } = await startApiAndRaw(state, { JWT_SECRET: SECRET });
await placeRawTenant(raw);
try {
  const {
    api: measured,
    raw: baseline,
    apiAgain,
    rawWithEvent,
  } = await compareMembership({
    api,
    raw,
    token: await mintToken(),
    rounds: quick ? 2 : 3,
    seconds: quick ? 2 : 5,
  });
  const ratio = Math.round((measured.rps / baseline.rps) * 1000) / 1000;
  console.log(
    JSON.stringify({ scenario: `route members add/remove, ${MEMBERS_PER_REQUEST} per request`, api: measured, raw: baseline, ratio }),
  );
  console.log(
    `members add/remove x${MEMBERS_PER_REQUEST}: API ${measured.rps} req/s (p50 ${measured.p50} ms, p99 ${measured.p99} ms, failed ${measured.failed}); raw batch ${baseline.rps} req/s (p50 ${baseline.p50} ms); ratio ${ratio}`,
  );
  console.log(
    `same writes (raw batch + outbox row): API ${apiAgain.rps} req/s, raw ${rawWithEvent.rps} req/s, ratio ${Math.round((apiAgain.rps / rawWithEvent.rps) * 1000) / 1000}`,
  );
} finally {
  await Promise.all([api.stop(), raw.stop()]);
  rmSync(state, { recursive: true, force: true });
}
