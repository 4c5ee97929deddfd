/**
 * Online moves of a tenant/org between tenant databases (POST /admin/placements/{tenantKey}/{orgKey}/move): writes
 * running during the move are held and land on the new database, nothing is lost or applied twice, every record is
 * identical afterwards (ids, versions, timestamps) and the old copy is deleted. Runs in both runtimes.
 */
import { describe, expect, it } from 'vitest';
import { tenantClient } from '../helpers/api';
import type { TenantClient } from '../helpers/api';
import { createDocument } from '../helpers/exchange-rates';
import { kpiReferenceData } from '../helpers/indicators';
import { readChanges } from '../helpers/events';
import { IMPORTS, registerImport } from '../helpers/imports';
import { callAdmin, movePlacement } from '../helpers/operator';
import type { PlacementBody } from '../helpers/operator';
import { createRoute, seedRouteReferenceData } from '../helpers/routes';
import { findTenantDatabase, readTestDatabases } from '../helpers/tenant-db';
import { countTenantRows, readResidency, snapshotRows } from '../helpers/tenant-rows';
import { uniqueKey } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';

const templateBody = (key: string) => ({
  templateKey: key,
  subject: `Subject ${key}`,
  emailTemplateType: 1,
  notificationBody: `<p>${key}</p>`,
  culture: 'en-US',
  custom_channel: 'email',
});

/** Records of every service, so that the move copies every kind of table. */
async function seedEverything(client: TenantClient, templates: number): Promise<void> {
  await kpiReferenceData(client);
  await seedRouteReferenceData(client);
  await createRoute(client);
  await createDocument(client, 1, '2026-01-01T00:00:00Z', [
    ['EUR', 'USD', '1.1'],
    ['EUR', 'GBP', '0.85'],
  ]);
  const measured = await client.call('POST', '/maintenance/indicators/measurements', {
    body: [
      { company: 'ACME-PT', code: 'COST', date: '2026-01-10', value: 10.5 },
      { company: 'ACME-PT', code: 'COST', date: '2026-02-10', value: 4 },
      { company: 'ACME-US', code: 'AVAIL', date: '2026-02-10', value: 97.25 },
      // 987654321098765432 millionths: beyond 2^53, copied exactly.
      { company: 'ACME-US', code: 'PEAK', date: '2026-02-11', value: '987654321098.765432' },
    ],
  });
  expect(measured.status, measured.text).toBe(200);
  expect((await client.call('POST', '/maintenance/indicators/assetsRecalculateKPIs/default')).status).toBe(200);
  await registerImport(client, { importDataTemplate: 'customers' });
  // A body far over the copy's inline limit travels as a bound parameter.
  const large = await client.call('POST', TEMPLATES, {
    body: { ...templateBody('large'), notificationBody: `<p>${'é'.repeat(60_000)}</p>` },
  });
  expect(large.status, large.text).toBe(201);
  for (let index = 0; index < templates; index += 1) {
    const created = await client.call('POST', TEMPLATES, { body: templateBody(`seed-${index}`) });
    expect(created.status, created.text).toBe(201);
  }
}

/** A seeded tenant/org: its home database, another one to move it to, and both D1 bindings. */
/** FTS5's own check that the trigram index holds exactly the entity table's text (throws otherwise). */
async function checkTextIndex(db: D1Database): Promise<void> {
  await db.prepare("INSERT INTO email_templates_text (email_templates_text, rank) VALUES ('integrity-check', 1)").run();
}

/**
 * Every row of the tenant/org (snapshotRows), the history checked apart: a move adds to it, at each switch, a `rebase`
 * of the insertion-sequence table whose ids it renumbered (src/tenant/placement/history-rebase.ts), and changes
 * nothing else in it. So: the history's entries up to the first rebase, and after them only rebases and the
 * measurements' inserts.
 */
async function readMovedRows(db: D1Database, scope: { tenantKey: string; orgKey: string }): Promise<Record<string, string[]>> {
  const rows = await snapshotRows(db, scope);
  const history = rows.tenant_history ?? [];
  const firstRebase = history.findIndex((row) => row.includes(`"operation":"'rebase'"`));
  const added = firstRebase < 0 ? [] : history.slice(firstRebase);
  for (const row of added) expect(row).toMatch(/"table_name":"'kpi_measurements'","operation":"'(rebase|insert)'"/);
  return { ...rows, tenant_history: firstRebase < 0 ? history : history.slice(0, firstRebase) };
}

async function seedPlaced(org: string, templates: number) {
  const client = await tenantClient(uniqueKey('moves'), uniqueKey(org));
  const scope = { tenantKey: client.tenant, orgKey: client.org };
  await seedEverything(client, templates);
  const home = (await findTenantDatabase(scope)) ?? '';
  const away = readTestDatabases().names.find((candidate) => candidate !== home) ?? '';
  const binding = (name: string) => readTestDatabases().tenants.get(name) as D1Database;
  return { client, scope, home, away, homeDb: binding(home), awayDb: binding(away) };
}

describe('moving a tenant/org to another database', { timeout: 30_000 }, () => {
  it('loses no write made during the move, keeps every record identical and deletes the old copy', async () => {
    const { client, scope, away: target, homeDb: sourceDb, awayDb: targetDb } = await seedPlaced('busy', 30);
    const before = await snapshotRows(sourceDb, scope);

    // 100 writes in 4 streams (75 template creates in the Worker, 25 import registrations in the Durable Object);
    // the move starts once 8 are done, so writes run before, during (held) and after the copy.
    let done = 0;
    let startMove: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (startMove = resolve));
    const write = (index: number) =>
      index % 4 === 3
        ? client.call<string>('POST', IMPORTS, { body: { importDataTemplate: 'during-move', originalFileName: `f${index}.csv` } })
        : client.call<string>('POST', TEMPLATES, { body: templateBody(`during-${index}`) });
    const writes: Awaited<ReturnType<typeof write>>[] = [];
    const issued: number[] = [];
    const streams = Array.from({ length: 4 }, async (_, stream) => {
      for (let step = 0; step < 25; step += 1) {
        const index = stream * 25 + step;
        issued.push(Date.now());
        writes[index] = await write(index);
        done += 1;
        if (done === 8) startMove();
      }
    });
    const window = { start: 0, end: 0 };
    const moving = started.then(async () => {
      window.start = Date.now();
      const answer = await movePlacement(client.tenant, client.org, target);
      window.end = Date.now();
      return answer;
    });
    await Promise.all(streams);
    const moved = await moving;
    // Writes were sent while the move ran.
    expect(issued.filter((at) => at >= window.start && at <= window.end).length).toBeGreaterThan(0);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ tenantKey: client.tenant, orgKey: client.org, database: target, epoch: 2, move: null });
    expect(moved.body.movedOn).not.toBeNull();

    // Held writes are acknowledged (201) or, only if the move outlasted the hold, refused with 503: never anything else.
    expect(writes.every((write) => write.status === 201 || write.status === 503)).toBe(true);
    const acknowledged = writes.filter((write) => write.status === 201);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const write of acknowledged) {
      const path = write.body.length === 36 && writes.indexOf(write) % 4 === 3 ? `${IMPORTS}/${write.body}` : `${TEMPLATES}/${write.body}`;
      expect((await client.call('GET', path)).status, path).toBe(200);
    }
    const templates = await client.call<{ count: number }>('GET', `${TEMPLATES}/odata?$count=true&$top=1`);
    const createdTemplates = writes.filter((write, index) => index % 4 !== 3 && write.status === 201).length;
    expect(templates.body.count).toBe(31 + createdTemplates);
    const imports = await client.call<unknown[]>('GET', `${IMPORTS}/getLastImports?templateId=during-move&top=100`);
    expect(imports.body).toHaveLength(writes.filter((write, index) => index % 4 === 3 && write.status === 201).length);

    // Every row that existed before is on the target, identical (ids, versions, timestamps, values).
    const after = await snapshotRows(targetDb, scope);
    for (const [table, rows] of Object.entries(before)) {
      for (const row of rows) expect(after[table], `${table}: ${row}`).toContain(row);
    }
    // The old copy is gone; the source keeps a tombstone, the target is the tenant/org's home.
    expect(await countTenantRows(sourceDb, scope)).toBe(0);
    expect(await readResidency(sourceDb, scope)).toBe('moved');
    expect(await readResidency(targetDb, scope)).toBe('active');
    expect(await findTenantDatabase(scope)).toBe(target);
    const placement = await callAdmin<PlacementBody>('GET', `/admin/placements/${client.tenant}/${client.org}`);
    expect(placement.body.rows).toBe(await countTenantRows(targetDb, scope));
  });

  it('moves there and back with identical records, answers the same data through the API each time, and keeps Idempotency-Keys', async () => {
    const { client, scope, home, away, homeDb, awayDb } = await seedPlaced('roundtrip', 5);
    // An Idempotency-Key used before the moves replays after them: keys live in the tenant/org's Durable Object.
    const key = uniqueKey('move-key');
    const keyed = () => client.call<string>('POST', TEMPLATES, { headers: { 'idempotency-key': key }, body: templateBody('keyed') });
    const first = await keyed();
    expect(first.status, first.text).toBe(201);
    const before = await readMovedRows(homeDb, scope);
    const listing = (await client.call('GET', `${TEMPLATES}/odata?$orderby=templateKey`)).text;
    // The maintained count (entity_counts) is not copied: the triggers count the rows a move inserts and deletes.
    const total = () => client.call('GET', `${TEMPLATES}/odata?$count=true&$top=0`).then((result) => result.text);
    const counted = await total();
    expect(JSON.parse(counted)).toMatchObject({ count: 7 });
    // The change feed moves with the records: the same events, and a cursor taken before the move stays valid.
    const feed = await readChanges(client);

    // contains() reads the trigram index, which the move rebuilds on the target (triggers) and empties on the source.
    const search = `${TEMPLATES}/odata?$filter=contains(subject,'ject seed-3')&$select=templateKey&$count=true`;
    const found = await client.call<{ count: number }>('GET', search);
    expect(found.body.count).toBe(1);
    const checkTextIndexes = () => Promise.all([homeDb, awayDb].map(checkTextIndex));

    expect((await movePlacement(client.tenant, client.org, away)).status).toBe(200);
    expect((await client.call('GET', `${TEMPLATES}/odata?$orderby=templateKey`)).text).toBe(listing);
    expect((await client.call('GET', search)).text).toBe(found.text);
    await checkTextIndexes();
    expect(await total()).toBe(counted);
    expect(await readChanges(client)).toEqual(feed);
    expect((await readChanges(client, `?since=${encodeURIComponent(feed.cursor)}`)).items).toEqual([]);
    const back = await movePlacement(client.tenant, client.org, home);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ database: home, epoch: 3 });
    expect((await client.call('GET', `${TEMPLATES}/odata?$orderby=templateKey`)).text).toBe(listing);
    expect(await total()).toBe(counted);
    expect((await client.call('GET', search)).text).toBe(found.text);
    await checkTextIndexes();
    expect(await readMovedRows(homeDb, scope)).toEqual(before);
    expect(await countTenantRows(awayDb, scope)).toBe(0);
    const replayed = await keyed();
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body]).toEqual([201, 'true', first.body]);
    expect(await readMovedRows(homeDb, scope)).toEqual(before);
    // Writes after the moves land at home, and their events continue the feed's sequence.
    expect((await client.call('POST', TEMPLATES, { body: templateBody('after-moves') })).status).toBe(201);
    const after = await readChanges(client, `?since=${encodeURIComponent(feed.cursor)}`);
    expect(after.items.map((item) => [item.changeType, item.key])).toEqual([['created', 'after-moves']]);
    expect(await countTenantRows(awayDb, scope)).toBe(0);
  });

  it('answers 409 to a move to another database while one is under way, and 200 at once to a move where it already is', async () => {
    const { client, home, away } = await seedPlaced('conflict', 40);
    const stay = await movePlacement(client.tenant, client.org, home);
    expect(stay.status).toBe(200);
    expect(stay.body).toMatchObject({ database: home, epoch: 1, movedOn: null });

    const moving = movePlacement(client.tenant, client.org, away);
    let seen: PlacementBody | undefined;
    for (let attempt = 0; attempt < 200 && !seen?.move; attempt += 1) {
      seen = (await callAdmin<PlacementBody>('GET', `/admin/placements/${client.tenant}/${client.org}`)).body;
    }
    expect(seen?.move?.database).toBe(away);
    const refused = await movePlacement(client.tenant, client.org, home);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'Conflict' });
    expect((await moving).status).toBe(200);
  });
});
