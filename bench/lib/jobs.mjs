// The tenant/org jobs that run in the background besides imports (issue 42, point 3): a snapshot, a restore in place and
// a move of one tenant/org of N email templates (loaded with SQL), each watched as the imports are (bench/lib/watch.mjs):
// the slowest answer of other requests while it runs, and the runtime's resident memory.
import { loadTemplateRows, mintOperatorToken, send, sendAdmin, TENANT } from './fixtures.mjs';
import { follow } from './restore.mjs';
import { watchJob } from './watch.mjs';

const JOBS_ORG = 'jobs';

async function postJob(api, path, body) {
  const started = performance.now();
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await mintOperatorToken()}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answerMs = Math.round(performance.now() - started);
  if (response.status !== 202) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  const job = await follow(api, response.headers.get('location'));
  return { id: job.id, answer_ms: answerMs, rows: job.rows ?? null, seconds: Math.round((performance.now() - started) / 100) / 10 };
}

async function moveTo(api, scope, database) {
  const started = performance.now();
  const placement = await sendAdmin(api, 'POST', `${scope}/move`, { database });
  return { database: placement.database, seconds: Math.round((performance.now() - started) / 100) / 10 };
}

/** Snapshot, restore in place and move of bench/jobs (`rows` email templates), each with its watch. */
export async function measureBackgroundJobs({ api, token, rows, targets }) {
  const prefix = `/api/${TENANT}/${JOBS_ORG}`;
  const body = { templateKey: 'placed', subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' };
  await send(api, token, 'POST', '/operations/emailTemplates', body, prefix);
  const scope = `/admin/placements/${TENANT}/${JOBS_ORG}`;
  const home = (await sendAdmin(api, 'GET', scope)).database;
  for (let from = 1; from <= rows; from += 100_000) await loadTemplateRows(api, home, from, Math.min(rows, from + 99_999), JOBS_ORG);
  const watch = { targets, pid: api.pid() };
  const snapshot = await watchJob(() => postJob(api, `${scope}/snapshots`), watch);
  await send(api, token, 'PUT', '/operations/emailTemplates/tpl-1/subject', 'After the snapshot', prefix);
  const restore = await watchJob(() => postJob(api, `${scope}/restore`, { snapshot: snapshot.result.id }), watch);
  const databases = (await sendAdmin(api, 'GET', '/admin/databases')).items.map((item) => item.database);
  const other = databases.find((binding) => binding !== home && binding.startsWith('TENANT_DB_'));
  const move = await watchJob(() => moveTo(api, scope, other), watch);
  const figure = (watched) => ({ ...watched.result, slowest_other: watched.slowest, memory: watched.memory });
  return { rows, snapshot: figure(snapshot), restore: figure(restore), move: figure(move) };
}
