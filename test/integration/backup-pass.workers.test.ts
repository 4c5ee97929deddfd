/**
 * The daily backup pass (src/tenant/backup/cron.ts), in bounded runs, with a clock moved forward: a snapshot of every
 * tenant/org that changed, then retention: the newest snapshot from before the retention's start is kept, older ones
 * deleted, and the history it no longer needs pruned; a moment of the retention still restores exactly. A run handles
 * at most its limit of the tenant/orgs due and the next run the rest; one that did not change is not snapshotted, and a
 * snapshot taken through the operator API is the day's; at most a cap of snapshots run at once per tenant database. Runs on storage of its own (it works on every tenant/org of the
 * databases), so the tests of this file follow each other: each drains what the previous one left due.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { TenantScope } from '../../src/db/client';
import { runBackupPass } from '../../src/tenant/backup/cron';
import type { BackupPassParts } from '../../src/tenant/backup/cron';
import type { BackupCoordinator } from '../../src/tenant/backup/coordinator';
import { buildR2BackupStore } from '../../src/tenant/backup/store';
import { readDatabaseSet } from '../../src/tenant/d1/databases';
import { callAdmin } from '../helpers/operator';
import { passMoment, readRestoredRows, restore } from '../helpers/restore';
import { openTenantD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const DAY_MS = 86_400_000;

function stubOf(scope: TenantScope) {
  return env.COORDINATOR.get(env.COORDINATOR.idFromName(`${scope.tenantKey}/${scope.orgKey}`));
}

const coordinator: BackupCoordinator = {
  startSnapshot: (scope, database, id) => stubOf(scope).startSnapshot(scope, database, id),
  startRestore: (scope, plan, id) => stubOf(scope).startRestore(scope, plan, id),
  readJob: (scope, id) => stubOf(scope).readJob(id),
};

const parts: BackupPassParts = { databases: readDatabaseSet(env), store: buildR2BackupStore(env.BACKUPS), coordinator, retentionDays: 30 };

async function listSnapshots(scope: TenantScope): Promise<{ id: string; startSeq: number; takenOn: string }[]> {
  const answer = await callAdmin<{ items: { id: string; startSeq: number; takenOn: string }[] }>(
    'GET',
    `/admin/placements/${scope.tenantKey}/${scope.orgKey}/snapshots`,
  );
  expect(answer.status, answer.text).toBe(200);
  return answer.body.items;
}

/** Waits until the tenant/org has `count` complete snapshots (the pass starts them; alarms finish them). */
async function awaitSnapshots(scope: TenantScope, count: number): Promise<{ id: string; startSeq: number; takenOn: string }[]> {
  for (let attempt = 0; attempt < 5_000; attempt += 1) {
    const items = await listSnapshots(scope);
    if (items.length >= count) return items;
  }
  throw new Error(`${scope.tenantKey}/${scope.orgKey} has fewer than ${count} snapshots.`);
}

const body = (key: string) => ({ templateKey: key, subject: key, emailTemplateType: 1, notificationBody: key, culture: 'en-US' });

function scopeOf(client: { tenant: string; org: string }): TenantScope {
  return { tenantKey: client.tenant, orgKey: client.org };
}

/** Runs the pass at `now` until nothing is due then (the snapshots it starts are not due again for a while). */
async function drain(now: Date): Promise<void> {
  for (let run = 0; run < 10; run += 1) if ((await runBackupPass(parts, now)).handled === 0) return;
  throw new Error('The pass still finds tenant/orgs due after 10 runs.');
}

describe('the daily backup pass', { timeout: 120_000 }, () => {
  it('snapshots what changed, keeps one snapshot before the retention, prunes the history it covers, and still restores exactly', async () => {
    const client = await freshTenant('pass');
    const scope = { tenantKey: client.tenant, orgKey: client.org };
    const db = await openTenantD1(scope);
    expect((await client.call('POST', '/operations/emailTemplates', { body: body('a') })).status).toBe(201);

    expect((await runBackupPass(parts, new Date())).snapshots).toBeGreaterThanOrEqual(1);
    const [snapshot] = await awaitSnapshots(scope, 1);

    expect((await client.call('POST', '/operations/emailTemplates', { body: body('b') })).status).toBe(201);
    const moment = await passMoment(db, scope);
    const rows = await readRestoredRows(db, scope);

    // A month later: the first snapshot is the newest from before the retention; the pass snapshots the change too.
    const later = await runBackupPass(parts, new Date(Date.now() + 31 * DAY_MS));
    expect(later.pruned).toBeGreaterThan(0);
    await awaitSnapshots(scope, 2);
    const oldest = await db
      .prepare('SELECT min(seq) AS seq FROM tenant_history WHERE tenant_key = ? AND org_key = ?')
      .bind(scope.tenantKey, scope.orgKey)
      .first<{ seq: number }>();
    expect(oldest?.seq).toBeGreaterThan(snapshot?.startSeq ?? 0);

    await restore(scope, { asOf: moment });
    expect(await readRestoredRows(db, scope)).toEqual(rows);
  });

  it('handles at most its limit of the tenant/orgs due per run, and the next run the rest', async () => {
    await drain(new Date());
    const clients = [await freshTenant('bound'), await freshTenant('bound'), await freshTenant('bound')];
    for (const client of clients) expect((await client.call('POST', '/operations/emailTemplates', { body: body('a') })).status).toBe(201);

    const bounded = { ...parts, limit: 2 };
    expect(await runBackupPass(bounded, new Date())).toMatchObject({ handled: 2, snapshots: 2 });
    expect(await runBackupPass(bounded, new Date())).toMatchObject({ handled: 1, snapshots: 1 });
    expect(await runBackupPass(bounded, new Date())).toMatchObject({ handled: 0, snapshots: 0 });
    for (const client of clients) expect(await awaitSnapshots(scopeOf(client), 1)).toHaveLength(1);
  });

  it('handles the most overdue first', async () => {
    await drain(new Date());
    // Keys in the opposite order of the snapshots' age: the order is by how long each is due, not by key.
    const older = await freshTenant('z-older');
    const newer = await freshTenant('a-newer');
    for (const client of [older, newer]) {
      expect((await client.call('POST', '/operations/emailTemplates', { body: body('a') })).status).toBe(201);
      expect((await runBackupPass(parts, new Date())).snapshots).toBe(1);
      await awaitSnapshots(scopeOf(client), 1);
    }
    for (const client of [older, newer])
      expect((await client.call('POST', '/operations/emailTemplates', { body: body('b') })).status).toBe(201);
    const [newest] = await listSnapshots(scopeOf(newer));
    const bothDue = new Date(Date.parse(newest?.takenOn ?? '') + DAY_MS + 60_000);

    expect(await runBackupPass({ ...parts, limit: 1 }, bothDue)).toMatchObject({ handled: 1, snapshots: 1 });
    expect(await awaitSnapshots(scopeOf(older), 2)).toHaveLength(2);
    expect(await listSnapshots(scopeOf(newer))).toHaveLength(1);
    // The next run: the other one.
    expect(await runBackupPass({ ...parts, limit: 1 }, bothDue)).toMatchObject({ handled: 1, snapshots: 1 });
    expect(await awaitSnapshots(scopeOf(newer), 2)).toHaveLength(2);
  });

  it('takes no snapshot of a tenant/org that did not change, and counts an operator snapshot as the daily one', async () => {
    await drain(new Date());
    const client = await freshTenant('idle');
    const scope = scopeOf(client);
    expect((await client.call('POST', '/operations/emailTemplates', { body: body('a') })).status).toBe(201);
    expect((await runBackupPass(parts, new Date())).snapshots).toBe(1);
    const [daily] = await awaitSnapshots(scope, 1);
    const dayAfter = Date.parse(daily?.takenOn ?? '') + DAY_MS + 60_000;

    // Nothing changed: no snapshot, two days later either.
    expect((await runBackupPass(parts, new Date(Date.now() + 2 * DAY_MS))).snapshots).toBe(0);
    expect(await listSnapshots(scope)).toHaveLength(1);

    // A change, then a snapshot through the operator API: it is the day's, the pass takes none a day later.
    expect((await client.call('POST', '/operations/emailTemplates', { body: body('b') })).status).toBe(201);
    const taken = await callAdmin('POST', `/admin/placements/${scope.tenantKey}/${scope.orgKey}/snapshots`);
    expect(taken.status, taken.text).toBe(202);
    const operators = (await awaitSnapshots(scope, 2))[1];
    expect((await runBackupPass(parts, new Date(dayAfter))).snapshots).toBe(0);

    // Another change: snapshotted once the operator's snapshot is a day old, not before.
    expect((await client.call('POST', '/operations/emailTemplates', { body: body('c') })).status).toBe(201);
    const operatorsOn = Date.parse(operators?.takenOn ?? '');
    expect((await runBackupPass(parts, new Date(operatorsOn + DAY_MS / 2))).snapshots).toBe(0);
    expect((await runBackupPass(parts, new Date(operatorsOn + DAY_MS + 60_000))).snapshots).toBe(1);
    expect(await awaitSnapshots(scope, 3)).toHaveLength(3);
  });

  it('prunes the history in bounded shares per run, the next runs going on where one stopped', async () => {
    await drain(new Date());
    const client = await freshTenant('prune');
    const scope = scopeOf(client);
    const db = await openTenantD1(scope);
    const companies = Array.from({ length: 1_200 }, (_, index) => ({ key: `C${index}`, name: `Company ${index}`, baseCurrency: 'EUR' }));
    expect((await client.call('PUT', '/referenceData/companies', { body: companies })).status).toBe(200);
    expect((await runBackupPass(parts, new Date())).snapshots).toBe(1);
    const [snapshot] = await awaitSnapshots(scope, 1);
    const startSeq = snapshot?.startSeq ?? 0;
    expect(startSeq).toBeGreaterThan(1_000);

    // A month later, one prune statement (500 entries) per run: several runs, each within its share, prune it all.
    const countCovered = async () =>
      (
        await db
          .prepare('SELECT count(*) AS n FROM tenant_history WHERE tenant_key = ? AND org_key = ? AND seq <= ?')
          .bind(scope.tenantKey, scope.orgKey, startSeq)
          .first<{ n: number }>()
      )?.n ?? 0;
    const later = new Date(Date.now() + 31 * DAY_MS);
    const shares: number[] = [];
    for (let run = 0; run < 30 && (await countCovered()) > 0; run += 1) {
      const report = await runBackupPass({ ...parts, pruneStatements: 1 }, later);
      expect(report.pruned).toBeLessThanOrEqual(500);
      shares.push(report.pruned);
    }
    expect(await countCovered()).toBe(0);
    expect(shares.length).toBeGreaterThanOrEqual(3);
  });
  it('runs at most its cap of snapshots at once per tenant database: the others wait for a later run', async () => {
    await drain(new Date());
    const clients = [await freshTenant('cap'), await freshTenant('cap'), await freshTenant('cap')];
    for (const client of clients) expect((await client.call('POST', '/operations/emailTemplates', { body: body('a') })).status).toBe(201);
    // Runs a year ahead (the last test of the file: its starts stay ahead of the clock, past every earlier test's): the
    // snapshots a run starts count as running there until the pass's 2-hour hold ends. One at a time per database.
    const databases = parts.databases.names.length;
    const capped = { ...parts, runningSnapshots: 1 };
    const first = new Date(Date.now() + 365 * DAY_MS);
    const started = (await runBackupPass(capped, first)).snapshots;
    expect(started).toBeGreaterThanOrEqual(1);
    expect(started).toBeLessThanOrEqual(Math.min(2, databases));
    expect((await runBackupPass(capped, first)).snapshots).toBe(0);
    let total = started;
    for (let hold = 1; total < 3 && hold <= 3; hold += 1) {
      const run = await runBackupPass(capped, new Date(first.getTime() + hold * 3 * 3_600_000));
      expect(run.snapshots).toBeLessThanOrEqual(databases);
      total += run.snapshots;
    }
    expect(total).toBe(3);
    for (const client of clients) expect(await awaitSnapshots(scopeOf(client), 1)).toHaveLength(1);
  });
});
