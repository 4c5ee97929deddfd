// npm run bench -- --restore [--restore-rows=N]: snapshot and point-in-time restore of one tenant/org of N email
// template rows (100,000 unless told; 1,000,000 for the figure), in rows per second: the snapshot (every row
// to the BACKUPS bucket, in alarm steps), a restore to that snapshot, and a restore to a moment after it (the snapshot
// plus the history since). Rows are loaded with SQL into the tenant/org's database; the history triggers record them.
import { fetchPolling, loadTemplateRows, mintOperatorToken, ORG, send, sendAdmin, TENANT } from './fixtures.mjs';

const POLL_MS = 250;

async function follow(api, location) {
  const path = new URL(location).pathname;
  for (;;) {
    // A poll that arrives while a step runs waits for it under `wrangler dev` (fetchPolling): at 1,000,000 rows a step
    // on a loaded machine outlasts 2 s, so each poll may wait up to 30 s (an hour in all) before it is sent again.
    const response = await fetchPolling(
      `${api.url}${path}`,
      { headers: { authorization: `Bearer ${await mintOperatorToken()}` } },
      { timeoutMs: 30_000, attempts: 120 },
    );
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text}`);
    const job = JSON.parse(text);
    if (job.state === 'failed') throw new Error(`${path} failed: ${job.error}`);
    if (job.state === 'done') return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Starts a job (POST answering 202 and Location) and answers its final status and the seconds it took. */
async function timeJob(api, path, body) {
  const started = Date.now();
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await mintOperatorToken()}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status !== 202) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  const job = await follow(api, response.headers.get('location'));
  return { job, seconds: (Date.now() - started) / 1000 };
}

export async function measureRestore({ api, token, rows, templateBody }) {
  await send(api, token, 'POST', '/operations/emailTemplates', templateBody('placed'));
  const home = (await sendAdmin(api, 'GET', `/admin/placements/${TENANT}/${ORG}`)).database;
  for (let from = 1; from <= rows; from += 100_000) loadTemplateRows(api, home, from, Math.min(rows, from + 99_999));
  const scope = `/admin/placements/${TENANT}/${ORG}`;
  const snapshot = await timeJob(api, `${scope}/snapshots`);
  await send(api, token, 'PUT', '/operations/emailTemplates/tpl-1/subject', 'After the snapshot');
  const moment = new Date().toISOString();
  const toSnapshot = await timeJob(api, `${scope}/restore`, { snapshot: snapshot.job.id });
  const toMoment = await timeJob(api, `${scope}/restore`, { asOf: moment });
  const figure = (name, measured) => ({
    name,
    rows: measured.job.rows,
    seconds: measured.seconds,
    rows_per_s: Math.round(measured.job.rows / measured.seconds),
  });
  return [figure('snapshot', snapshot), figure('restore to the snapshot', toSnapshot), figure('restore to a moment after it', toMoment)];
}
