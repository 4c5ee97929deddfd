// Applies one service's demo data through the API, idempotently, with `send(method, path, body)` answering
// `{ status, text }`: reference data is a bulk upsert by key; a record with a `findPath` (an OData list filtered to
// that record, `findPath(base, filter)`) is created only when the list is empty, so no request of a start fails, the
// first or a later one; records without one are idempotent operations
// (route members: adding one twice is a no-op); `seed(send)` (optional) is for data with its own idempotency check.
// Returns how many records were created (201s and what `seed` reports). scripts/seed.mjs sends over HTTP; the seed
// tests send through the Worker.
export async function applySeedModule(module, send) {
  for (const [kind, items] of Object.entries(module.referenceData ?? {})) {
    const result = await sendAgain(send, 'PUT', `/referenceData/${kind}`, items);
    if (result.status !== 200) throw new Error(`Seeding ${kind} failed: ${result.status} ${result.text}`);
  }
  let created = 0;
  for (const record of module.records ?? []) {
    if (record.findPath && (await exists(send, record.findPath))) continue;
    const method = record.method ?? 'POST';
    const result = await sendAgain(send, method, record.path, record.body, record.findPath);
    if (result === DONE_BEFORE) continue;
    if (result.status < 200 || result.status >= 300)
      throw new Error(`Seeding ${method} ${record.path} failed: ${result.status} ${result.text}`);
    if (result.status === 201) created += 1;
  }
  if (module.seed) created += await module.seed(send);
  return created;
}

const RESTARTED = /worker restarted mid-request/;
const DONE_BEFORE = { status: 200, text: '' };

/**
 * Sends a seed write, and again when `wrangler dev`'s proxy answered 503 "worker restarted mid-request" (a keep-alive
 * race of the local proxy, workers-sdk#14641: the write may or may not have run). Every seed write is idempotent; a
 * create is first looked for (`findPath`), and DONE_BEFORE is answered when the first attempt did create it.
 */
async function sendAgain(send, method, path, body, findPath) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await send(method, path, body);
    if (result.status !== 503 || !RESTARTED.test(result.text) || attempt >= 5) return result;
    if (findPath && (await exists(send, findPath))) return DONE_BEFORE;
  }
}

/** The OData list of `base` (`/operations/emailTemplates`) filtered to one record: the `findPath` of a create. */
export function findPath(base, filter) {
  return `${base}/odata?$filter=${encodeURIComponent(filter)}&$select=id`;
}

async function exists(send, path) {
  const result = await send('GET', path);
  if (result.status !== 200) throw new Error(`Reading ${path} failed: ${result.status} ${result.text}`);
  return JSON.parse(result.text).items.length > 0;
}
