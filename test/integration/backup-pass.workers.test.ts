/**
 * The daily backup pass (src/platform/backup/cron.ts) with a clock moved forward: a snapshot of every tenant/org that
 * changed, then retention: the newest snapshot from before the retention's start is kept, older ones deleted, and the
 * history it no longer needs pruned; a moment of the retention still restores exactly. Runs on storage of its own (it
 * works on every tenant/org of the databases).
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { TenantScope } from '../../src/db/client';
import { runBackupPass } from '../../src/platform/backup/cron';
import type { BackupPassParts } from '../../src/platform/backup/cron';
import type { BackupCoordinator } from '../../src/platform/backup/operations';
import { buildR2BackupStore } from '../../src/platform/backup/store';
import { readDatabaseSet } from '../../src/platform/d1/databases';
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

async function listSnapshots(scope: TenantScope): Promise<{ id: string; startSeq: number }[]> {
  const answer = await callAdmin<{ items: { id: string; startSeq: number }[] }>(
    'GET',
    `/admin/placements/${scope.tenantKey}/${scope.orgKey}/snapshots`,
  );
  expect(answer.status, answer.text).toBe(200);
  return answer.body.items;
}

/** Waits until the tenant/org has `count` complete snapshots (the pass starts them; alarms finish them). */
async function awaitSnapshots(scope: TenantScope, count: number): Promise<{ id: string; startSeq: number }[]> {
  for (let attempt = 0; attempt < 5_000; attempt += 1) {
    const items = await listSnapshots(scope);
    if (items.length >= count) return items;
  }
  throw new Error(`${scope.tenantKey}/${scope.orgKey} has fewer than ${count} snapshots.`);
}

describe('the daily backup pass', { timeout: 120_000 }, () => {
  it('snapshots what changed, keeps one snapshot before the retention, prunes the history it covers, and still restores exactly', async () => {
    const client = await freshTenant('pass');
    const scope = { tenantKey: client.tenant, orgKey: client.org };
    const db = await openTenantD1(scope);
    const body = (key: string) => ({ templateKey: key, subject: key, emailTemplateType: 1, notificationBody: key, culture: 'en-US' });
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
});
