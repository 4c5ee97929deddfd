// File imports at scale (issues 29 and 42): in one run, a routes CSV of N rows uploaded to POST
// /corePatterns/importDataInfos/files and processed (the Workflow), reverted (revertImportFile, answered at once, the
// undo in steps of its own), and a second import cancelled while it runs; beside them the same-schema floor: the raw
// Worker's `INSERT INTO routes ... SELECT ... FROM json_each(?)` and `DELETE FROM routes ... IN json_each(?)` per 500 rows
// (the import's chunk), same migrations and so the same triggers, no checks, no events. While each job runs, other
// requests are sent (the job's own status, another tenant/org's read, /health) and their slowest answer is kept, and the
// runtime's resident memory is sampled (bench/lib/watch.mjs).
import { ORG, send, TENANT } from './fixtures.mjs';
import { watchJob } from './watch.mjs';

const CHUNK_ROWS = 500;
const POLL_MS = 250;
/** A tenant/org of the same Worker, read while the jobs run: its answers must not wait for them. */
const OTHER_ORG = 'other';

/** A routes CSV of `rows` rows (`;`-separated, as Portuguese exports are), company C1, keys `<prefix>-<n>`. */
export function buildRoutesCsv(prefix, rows) {
  const lines = ['routeKey;description;company;remarks'];
  for (let index = 0; index < rows; index += 1) lines.push(`${prefix}-${index};Route ${index};C1;"Bench; row ${index}"`);
  return `${lines.join('\n')}\n`;
}

/** A GET of the import (no retry: a held answer is measured as it is); its latency is kept with the poll's. */
async function readImport(base, auth, id, latencies) {
  const started = performance.now();
  const response = await fetch(`${base}/corePatterns/importDataInfos/${id}`, {
    headers: auth,
    signal: globalThis.AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  latencies.push(performance.now() - started);
  if (response.status !== 200) throw new Error(`GET import ${id}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/**
 * Reads the import every POLL_MS until `ended(row)`; answers the last row, the polls' slowest answer and the longest
 * time the progress count (`count(row)`) went unchanged while the job ran.
 */
async function pollUntil(base, auth, id, { ended, count, label }) {
  const latencies = [];
  let last = { value: undefined, at: performance.now() };
  let longestStill = 0;
  let told = performance.now();
  for (;;) {
    const row = await readImport(base, auth, id, latencies);
    const value = count(row);
    const now = performance.now();
    if (value !== last.value) {
      longestStill = Math.max(longestStill, now - last.at);
      last = { value, at: now };
    }
    if (now - told > 10_000) {
      told = now;
      console.error(`  ${label} ${id}: ${JSON.stringify({ state: row.importDataState, undoState: row.undoState, count: value })}`);
    }
    if (ended(row)) {
      return {
        row,
        poll_max_ms: Math.round(Math.max(...latencies)),
        polls: latencies.length,
        longest_unchanged_s: round(longestStill / 1000),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function round(value, digits = 1) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

async function upload(base, auth, csv, name) {
  const response = await fetch(`${base}/corePatterns/importDataInfos/files?importDataTemplate=routes`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'text/csv', 'content-disposition': `attachment; filename="${name}"` },
    body: csv,
  });
  const text = await response.text();
  if (response.status !== 202) throw new Error(`upload: ${response.status} ${text}`);
  return JSON.parse(text).id;
}

/** Uploads the CSV and reads the import until it has ended. */
async function importFile(base, auth, csv) {
  const started = performance.now();
  const id = await upload(base, auth, csv, 'bench-routes.csv');
  const uploadSeconds = (performance.now() - started) / 1000;
  const polled = await pollUntil(base, auth, id, {
    ended: (row) => row.importDataState >= 3,
    count: (row) => row.rowsRead,
    label: 'import',
  });
  return { id, ...polled, seconds: (performance.now() - started) / 1000, upload_seconds: round(uploadSeconds, 2) };
}

/** revertImportFile (answered at once), then the import read until its undo is done. */
async function revertFile(base, auth, id) {
  const started = performance.now();
  const response = await fetch(`${base}/corePatterns/importDataInfos/revertImportFile`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ templateKey: 'routes' }),
    signal: globalThis.AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  const answerMs = Math.round(performance.now() - started);
  if (response.status !== 200) throw new Error(`revertImportFile: ${response.status} ${text}`);
  const polled = await pollUntil(base, auth, id, { ended: (row) => row.undoState === 2, count: (row) => row.rowsUndone, label: 'revert' });
  return { answer_ms: answerMs, answer: JSON.parse(text), ...polled, seconds: (performance.now() - started) / 1000 };
}

/** A second import, cancelled once a third of it is read: the cancel's answer, then its undo until done. */
async function cancelFile(base, auth, csv, rows) {
  const id = await upload(base, auth, csv, 'bench-cancel.csv');
  const latencies = [];
  for (;;) {
    const row = await readImport(base, auth, id, latencies);
    if (row.importDataState >= 3) throw new Error(`the import to cancel ended first (${row.importDataState}): use more rows`);
    if (row.rowsRead >= rows / 3) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const started = performance.now();
  const response = await fetch(`${base}/corePatterns/importDataInfos/${id}/cancel`, {
    method: 'POST',
    headers: auth,
    signal: globalThis.AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  const answerMs = Math.round(performance.now() - started);
  if (response.status !== 200) throw new Error(`cancel: ${response.status} ${text}`);
  const polled = await pollUntil(base, auth, id, { ended: (row) => row.undoState === 2, count: (row) => row.rowsUndone, label: 'cancel' });
  return {
    answer_ms: answerMs,
    rows_read_when_cancelled: JSON.parse(text).rowsRead,
    ...polled,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The raw floor: the rows as JSON arrays of 500 to `path` (one statement each, in sequence); answers the seconds. */
async function runRawChunks(raw, path, prefix, rows, toItem) {
  const started = performance.now();
  for (let from = 0; from < rows; from += CHUNK_ROWS) {
    const chunk = Array.from({ length: Math.min(CHUNK_ROWS, rows - from) }, (_, offset) =>
      toItem(`${prefix}-${from + offset}`, from + offset),
    );
    const response = await fetch(`${raw.url}${path}?tenant=${TENANT}&org=${ORG}`, { method: 'POST', body: JSON.stringify(chunk) });
    if (response.status !== 200) throw new Error(`raw ${path}: ${response.status} ${await response.text()}`);
  }
  return (performance.now() - started) / 1000;
}

/** The same-schema floor of the import and of the revert, in rows per second. */
async function measureFloor(raw, rows) {
  const prefix = `raw-${Date.now()}`;
  const insert = await runRawChunks(raw, '/d1/routes-json', prefix, rows, (key, index) => ({
    routeKey: key,
    description: `Route ${index}`,
    remarks: `Bench; row ${index}`,
  }));
  const remove = await runRawChunks(raw, '/d1/routes-delete-json', prefix, rows, (key) => key);
  return {
    insert: { seconds: round(insert, 2), rows_per_s: Math.round(rows / insert) },
    delete: { seconds: round(remove, 2), rows_per_s: Math.round(rows / remove) },
  };
}

/** The requests sent while a job runs (besides the job's own status polls). */
function probeTargets(api, token) {
  const auth = { authorization: `Bearer ${token}` };
  return [
    { name: 'health', url: `${api.url}/health` },
    { name: 'other tenant/org', url: `${api.url}/api/${TENANT}/${OTHER_ORG}/referenceData/companies`, headers: auth },
  ];
}

/** Imports, reverts and cancels a routes CSV of `rows` rows, each watched; the same-schema floor for the same rows. */
export async function measureImports({ api, raw, token, base, auth, rows }) {
  await send(api, token, 'PUT', '/referenceData/companies', [{ key: 'C1', name: 'Company One', baseCurrency: 'EUR' }]);
  await send(
    api,
    token,
    'PUT',
    '/referenceData/companies',
    [{ key: 'C1', name: 'Company One', baseCurrency: 'EUR' }],
    `/api/${TENANT}/${OTHER_ORG}`,
  );
  const csv = buildRoutesCsv(`imp-${Date.now()}`, rows);
  const watch = { targets: probeTargets(api, token), pid: api.pid() };
  const imported = await watchJob(() => importFile(base, auth, csv), watch);
  const { row } = imported.result;
  if (row.importDataState !== 3 || row.rowsCreated !== rows)
    throw new Error(`import ended ${row.importDataState}: ${row.detailLog} ${row.error ?? ''}`);
  console.error(`  import: ${rows} rows in ${imported.result.seconds.toFixed(1)} s, ${Math.round(rows / imported.result.seconds)} rows/s`);
  const reverted = await watchJob(() => revertFile(base, auth, imported.result.id), watch);
  if (reverted.result.row.rowsUndone !== rows)
    throw new Error(`revert undid ${reverted.result.row.rowsUndone} of ${rows}: ${JSON.stringify(reverted.result.row.revertResult)}`);
  console.error(`  revert: ${rows} rows in ${reverted.result.seconds.toFixed(1)} s, ${Math.round(rows / reverted.result.seconds)} rows/s`);
  const cancelRows = Math.min(rows, 100_000);
  const cancelled = await watchJob(() => cancelFile(base, auth, buildRoutesCsv(`cancel-${Date.now()}`, cancelRows), cancelRows), watch);
  console.error(
    `  cancel: answered in ${cancelled.result.answer_ms} ms, ${cancelled.result.row.rowsUndone} records undone in ${cancelled.result.seconds.toFixed(1)} s`,
  );
  const floorMemory = { pid: raw.pid() };
  const floor = await watchJob(() => measureFloor(raw, rows), { targets: [], ...floorMemory });
  console.error(`  floor: insert ${floor.result.insert.rows_per_s} rows/s, delete ${floor.result.delete.rows_per_s} rows/s`);
  const rate = (seconds) => Math.round(rows / seconds);
  return {
    rows,
    bytes: new TextEncoder().encode(csv).byteLength,
    import: {
      ...pick(imported.result, ['seconds', 'upload_seconds', 'poll_max_ms', 'longest_unchanged_s']),
      rows_per_s: rate(imported.result.seconds),
      ratio_to_floor: round(rate(imported.result.seconds) / floor.result.insert.rows_per_s, 2),
      slowest_other: imported.slowest,
      memory: imported.memory,
    },
    revert: {
      ...pick(reverted.result, ['answer_ms', 'seconds', 'poll_max_ms', 'longest_unchanged_s']),
      rows_per_s: rate(reverted.result.seconds),
      ratio_to_floor: round(rate(reverted.result.seconds) / floor.result.delete.rows_per_s, 2),
      outcome: reverted.result.row.revertResult,
      slowest_other: reverted.slowest,
      memory: reverted.memory,
    },
    cancel: {
      rows: cancelRows,
      ...pick(cancelled.result, ['answer_ms', 'rows_read_when_cancelled', 'seconds', 'poll_max_ms', 'longest_unchanged_s']),
      rows_undone: cancelled.result.row.rowsUndone,
      detail_log: cancelled.result.row.detailLog,
      slowest_other: cancelled.slowest,
      memory: cancelled.memory,
    },
    floor: { ...floor.result, raw_memory: floor.memory },
  };
}

function pick(object, keys) {
  return Object.fromEntries(keys.map((key) => [key, typeof object[key] === 'number' ? round(object[key], 2) : object[key]]));
}
