// npm run bench -- --restore [--restore-rows=N]: snapshot and point-in-time restore of one tenant/org of N email
// template rows (100,000 unless told; 1,000,000 for the figure). Timed, each from its POST to the job's end:
// - the snapshot (every row to the BACKUPS bucket, in alarm steps);
// - restores in place (the `changes` method: only the rows changed since the moment are written): to the snapshot
//   after one change, to a moment after that change, and back before a bulk update of one row in ten;
// - a restore of the snapshot into another, empty tenant/org on the other database (the `rebuild` method: every row).
// Rows are loaded with SQL into the tenant/org's database; the history triggers record them.
import { loadTemplateRows, mintOperatorToken, ORG, send, sendAdmin, TENANT } from './fixtures.mjs';
import { executeSql } from './servers.mjs';

const POLL_MS = 250;

/**
 * A status GET whose body is read within the same timeout, sent again when either stalls: under `wrangler dev` a request
 * that arrives while a step runs waits for it (fetchPolling), and an answer's body can stall the same way.
 */
async function readStatus(api, path) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await fetch(`${api.url}${path}`, {
        headers: { authorization: `Bearer ${await mintOperatorToken()}` },
        signal: globalThis.AbortSignal.timeout(30_000),
      });
      return { status: response.status, text: await response.text() };
    } catch (error) {
      if (error?.name !== 'TimeoutError' || attempt >= 120) throw error;
    }
  }
}

export async function follow(api, location) {
  const path = new URL(location).pathname;
  for (;;) {
    const { status, text } = await readStatus(api, path);
    if (status !== 200) throw new Error(`GET ${path}: ${status} ${text}`);
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

/** One row in ten of the bench tenant/org's templates changed by one SQL statement (the history records each). */
async function updateOneInTen(api, binding) {
  await executeSql(
    api,
    binding,
    `UPDATE email_templates SET subject = subject || ' (bulk)', version = version + 1 WHERE tenant_key = '${TENANT}' AND org_key = '${ORG}' AND rowid % 10 = 0`,
  );
}

/** The moment of the last write, once the clock has passed it (a moment restores everything up to it). */
async function passMoment() {
  const moment = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  return moment;
}

export async function measureRestore({ api, token, rows, templateBody }) {
  await send(api, token, 'POST', '/operations/emailTemplates', templateBody('placed'));
  const home = (await sendAdmin(api, 'GET', `/admin/placements/${TENANT}/${ORG}`)).database;
  for (let from = 1; from <= rows; from += 100_000) await loadTemplateRows(api, home, from, Math.min(rows, from + 99_999));
  const scope = `/admin/placements/${TENANT}/${ORG}`;
  const snapshot = await timeJob(api, `${scope}/snapshots`);
  await send(api, token, 'PUT', '/operations/emailTemplates/tpl-1/subject', 'After the snapshot');
  const moment = await passMoment();
  const toSnapshot = await timeJob(api, `${scope}/restore`, { snapshot: snapshot.job.id });
  const toMoment = await timeJob(api, `${scope}/restore`, { asOf: moment });
  const beforeBulk = await passMoment();
  await updateOneInTen(api, home);
  const undoBulk = await timeJob(api, `${scope}/restore`, { asOf: beforeBulk });
  const copy = await timeJob(api, `${scope}/restore`, { snapshot: snapshot.job.id, target: { tenantKey: TENANT, orgKey: 'restored' } });
  const tenantRows = snapshot.job.rows;
  const figure = (name, measured) => ({
    name,
    method: measured.job.method ?? 'snapshot',
    tenant_rows: tenantRows,
    rows_written: measured.job.rows,
    seconds: measured.seconds,
    rows_written_per_s: Math.round(measured.job.rows / measured.seconds),
  });
  return [
    figure('snapshot', snapshot),
    figure('restore in place to the snapshot (one change since)', toSnapshot),
    figure('restore in place to a moment after that change', toMoment),
    figure('restore in place to before a bulk update of one row in ten', undoBulk),
    figure('restore of the snapshot into an empty tenant/org (rebuild)', copy),
  ];
}
