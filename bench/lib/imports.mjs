// File imports (issue 29): a routes CSV of N rows uploaded to POST /corePatterns/importDataInfos/files and processed
// (the Workflow under wrangler dev), then reverted; rows per second of each, beside the raw floor: the raw Worker's
// one `INSERT INTO routes ... SELECT ... FROM json_each(?)` per 500 rows (the import's chunk size), same triggers.
import { fetchPolling, ORG, send, TENANT } from './fixtures.mjs';

const CHUNK_ROWS = 500;

/** A routes CSV of `rows` rows (`;`-separated, as Portuguese exports are), company C1, keys `<prefix>-<n>`. */
export function buildRoutesCsv(prefix, rows) {
  const lines = ['routeKey;description;company;remarks'];
  for (let index = 0; index < rows; index += 1) lines.push(`${prefix}-${index};Route ${index};C1;"Bench; row ${index}"`);
  return `${lines.join('\n')}\n`;
}

async function readImport(base, auth, id) {
  // A poll that arrives during a Workflow step waits for it under `wrangler dev` (fetchPolling): up to 30 s each.
  const response = await fetchPolling(
    `${base}/corePatterns/importDataInfos/${id}`,
    { headers: auth },
    { timeoutMs: 30_000, attempts: 120 },
  );
  if (response.status !== 200) throw new Error(`GET import ${id}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Uploads the CSV and reads the import every 250 ms until it has ended; answers it with the seconds it took. */
async function importFile(base, auth, csv) {
  const started = performance.now();
  const response = await fetch(`${base}/corePatterns/importDataInfos/files?importDataTemplate=routes`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="bench-routes.csv"' },
    body: csv,
  });
  const text = await response.text();
  if (response.status !== 202) throw new Error(`upload: ${response.status} ${text}`);
  const { id } = JSON.parse(text);
  const uploaded = performance.now();
  let told = 0;
  for (;;) {
    const current = await readImport(base, auth, id);
    if (performance.now() - told > 5000) {
      told = performance.now();
      console.error(
        `  import ${id}: state ${current.importDataState}, ${current.rowsRead} rows read (${Math.round((told - started) / 1000)} s)`,
      );
    }
    if (current.importDataState >= 3) {
      return { row: current, seconds: (performance.now() - started) / 1000, uploadSeconds: (uploaded - started) / 1000 };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The raw floor: the same rows as JSON arrays of 500, one INSERT ... SELECT FROM json_each(?) each, in sequence. */
async function insertRaw(raw, prefix, rows) {
  const started = performance.now();
  for (let from = 0; from < rows; from += CHUNK_ROWS) {
    const chunk = Array.from({ length: Math.min(CHUNK_ROWS, rows - from) }, (_, offset) => ({
      routeKey: `${prefix}-${from + offset}`,
      description: `Route ${from + offset}`,
      remarks: `Bench; row ${from + offset}`,
    }));
    const response = await fetch(`${raw.url}/d1/routes-json?tenant=${TENANT}&org=${ORG}`, { method: 'POST', body: JSON.stringify(chunk) });
    if (response.status !== 200) throw new Error(`raw routes insert: ${response.status} ${await response.text()}`);
  }
  return (performance.now() - started) / 1000;
}

/** Imports and reverts a routes CSV of `rows` rows; the raw floor for the same rows. */
export async function measureImports({ api, raw, token, base, auth, rows }) {
  await send(api, token, 'PUT', '/referenceData/companies', [{ key: 'C1', name: 'Company One', baseCurrency: 'EUR' }]);
  const csv = buildRoutesCsv(`imp-${Date.now()}`, rows);
  const imported = await importFile(base, auth, csv);
  if (imported.row.importDataState !== 3 || imported.row.rowsCreated !== rows) {
    throw new Error(`import ended ${imported.row.importDataState}: ${imported.row.detailLog} ${imported.row.error ?? ''}`);
  }
  const importFigure = { seconds: imported.seconds, upload_seconds: imported.uploadSeconds, rows_per_s: rows / imported.seconds };
  console.error(`  import: ${rows} rows in ${imported.seconds.toFixed(1)} s, ${Math.round(importFigure.rows_per_s)} rows/s`);
  const revert = await revertImport(base, auth, rows);
  console.error(`  revert: ${JSON.stringify(revert)}`);
  const rawSeconds = await insertRaw(raw, `raw-${Date.now()}`, rows);
  return {
    rows,
    bytes: new TextEncoder().encode(csv).byteLength,
    import: importFigure,
    revert,
    raw_insert: { seconds: rawSeconds, rows_per_s: rows / rawSeconds },
  };
}

/**
 * The revert (one request: the import's chunks undone in the tenant/org's coordinator), timed; a request that fails
 * (a large revert can outlast the client's 300 s wait for the answer's headers) is reported, not thrown.
 */
async function revertImport(base, auth, rows) {
  const started = performance.now();
  try {
    const response = await fetch(`${base}/corePatterns/importDataInfos/revertImportFile`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ templateKey: 'routes' }),
    });
    const text = await response.text();
    const seconds = (performance.now() - started) / 1000;
    if (response.status !== 200) return { seconds, status: response.status, error: text };
    return { seconds, rows_per_s: rows / seconds, message: JSON.parse(text).message };
  } catch (error) {
    return { seconds: (performance.now() - started) / 1000, error: String(error?.cause ?? error) };
  }
}
