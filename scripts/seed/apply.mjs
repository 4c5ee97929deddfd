// Applies one service's demo data through the API, idempotently, with `send(method, path, body)` answering
// `{ status, text }`: reference data is a bulk upsert by key; a create answered 400 DuplicateKey was seeded by
// an earlier start; `seed(send)` (optional) is for data with its own idempotency check. Returns how many
// records were created. scripts/seed.mjs sends over HTTP; the seed tests send through the Worker.
export async function applySeedModule(module, send) {
  for (const [kind, items] of Object.entries(module.referenceData ?? {})) {
    const result = await send('PUT', `/referenceData/${kind}`, items);
    if (result.status !== 200) throw new Error(`Seeding ${kind} failed: ${result.status} ${result.text}`);
  }
  let created = 0;
  for (const record of module.records ?? []) {
    const method = record.method ?? 'POST';
    const result = await send(method, record.path, record.body);
    if (result.status >= 200 && result.status < 300) created += 1;
    else if (!(result.status === 400 && result.text.includes('"DuplicateKey"'))) {
      throw new Error(`Seeding ${method} ${record.path} failed: ${result.status} ${result.text}`);
    }
  }
  if (module.seed) created += await module.seed(send);
  return created;
}
