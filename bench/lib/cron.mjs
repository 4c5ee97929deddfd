// The cron path at scale (issue 42): `GET /__scheduled` (the README's way to run the cron jobs locally) on a local
// state of many tenant/orgs with rows, three times in a row, each timed, with the slowest answer of other requests
// while it runs (bench/lib/watch.mjs). The daily backup pass starts snapshots in its runs (src/tenant/backup/cron.ts).
import { loadTemplateRows, send, sendAdmin, TENANT } from './fixtures.mjs';
import { watchJob } from './watch.mjs';

/** `orgs` tenant/orgs of `rows` email templates each (loaded with SQL after a first write places each). */
async function prepareOrgs(api, token, orgs, rows) {
  const body = { templateKey: 'placed', subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' };
  const started = Date.now();
  for (let index = 0; index < orgs; index += 1) {
    const org = `cron-${index}`;
    await send(api, token, 'POST', '/operations/emailTemplates', body, `/api/${TENANT}/${org}`);
    const home = (await sendAdmin(api, 'GET', `/admin/placements/${TENANT}/${org}`)).database;
    await loadTemplateRows(api, home, 1, rows, org);
  }
  console.error(`  ${orgs} tenant/orgs of ${rows} rows loaded in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function callScheduled(api) {
  const started = performance.now();
  try {
    const response = await fetch(`${api.url}/__scheduled`, { signal: globalThis.AbortSignal.timeout(600_000) });
    const text = await response.text();
    return { status: response.status, text: text.slice(0, 60), seconds: Math.round((performance.now() - started) / 100) / 10 };
  } catch (error) {
    return { error: String(error?.name ?? error), seconds: Math.round((performance.now() - started) / 100) / 10 };
  }
}

/** Three cron runs in a row on `orgs` tenant/orgs of `rows` rows, each with its watch. */
export async function measureCron({ api, token, orgs, rows, targets }) {
  await prepareOrgs(api, token, orgs, rows);
  const calls = [];
  for (let call = 0; call < 3; call += 1) {
    const watched = await watchJob(() => callScheduled(api), { targets, pid: api.pid() });
    calls.push({ ...watched.result, slowest_other: watched.slowest, memory: watched.memory });
    console.error(`  GET /__scheduled #${call + 1}: ${JSON.stringify(watched.result)}`);
  }
  return { orgs, rows, calls };
}
