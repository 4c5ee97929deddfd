// Applies one service's demo data through the API, idempotently, with `send(method, path, body)` answering
// `{ status, text }`: reference data is a bulk upsert by key; a record with a `readPath` is created only when that
// read answers 404 (so a second start sends no request that fails); records without one are idempotent operations
// (route members: adding one twice is a no-op); `seed(send)` (optional) is for data with its own idempotency check.
// Returns how many records were created (201s and what `seed` reports). scripts/seed.mjs sends over HTTP; the seed
// tests send through the Worker.
export async function applySeedModule(module, send) {
  for (const [kind, items] of Object.entries(module.referenceData ?? {})) {
    const result = await send('PUT', `/referenceData/${kind}`, items);
    if (result.status !== 200) throw new Error(`Seeding ${kind} failed: ${result.status} ${result.text}`);
  }
  let created = 0;
  for (const record of module.records ?? []) {
    if (record.readPath && (await exists(send, record.readPath))) continue;
    const method = record.method ?? 'POST';
    const result = await send(method, record.path, record.body);
    if (result.status < 200 || result.status >= 300)
      throw new Error(`Seeding ${method} ${record.path} failed: ${result.status} ${result.text}`);
    if (result.status === 201) created += 1;
  }
  if (module.seed) created += await module.seed(send);
  return created;
}

async function exists(send, path) {
  const result = await send('GET', path);
  if (result.status === 200) return true;
  if (result.status === 404) return false;
  throw new Error(`Reading ${path} failed: ${result.status} ${result.text}`);
}
