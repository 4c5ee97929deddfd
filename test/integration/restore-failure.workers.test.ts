/**
 * A restore that cannot finish never strands its target: a snapshot object gone from the BACKUPS bucket (R2, so this
 * file runs in the Workers run only) makes the restore into an empty tenant/org fail; the job says why in plain words,
 * the target is empty again and takes writes (never a standing 503 "being moved"), and a later restore into it ends.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { tenantClient } from '../helpers/api';
import { callAdmin } from '../helpers/operator';
import { expectStatus, followJob, passMoment, readRestoredRows, restore, takeSnapshot } from '../helpers/restore';
import type { JobBody } from '../helpers/restore';
import { findTenantDatabase, readTestDatabases } from '../helpers/tenant-db';
import { freshTenant, uniqueKey } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';
const templateBody = (key: string) => ({ templateKey: key, subject: 'S', emailTemplateType: 2, notificationBody: 'B', culture: 'en-US' });

describe('a restore that fails', () => {
  it('releases its target, empty again, with the reason in plain words; restoring into it again succeeds', async () => {
    const client = await freshTenant('restore-fail');
    const scope = { tenantKey: client.tenant, orgKey: client.org };
    for (const key of ['a', 'b']) await expectStatus(client.call('POST', TEMPLATES, { body: templateBody(key) }), 201);
    const home = readTestDatabases().tenants.get((await findTenantDatabase(scope)) ?? '') as D1Database;
    const before = await passMoment(home, scope);
    await expectStatus(client.call('POST', TEMPLATES, { body: templateBody('c') }), 201);
    const snapshot = await takeSnapshot(scope);
    const prefix = `snapshots/${scope.tenantKey}/${scope.orgKey}/${snapshot.snapshot ?? ''}/`;
    const objects = (await env.BACKUPS.list({ prefix })).objects
      .map((object) => object.key)
      .filter((key) => !key.endsWith('manifest.json'));
    expect(objects.length).toBeGreaterThan(0);
    await env.BACKUPS.delete(objects);

    const target = { tenantKey: client.tenant, orgKey: uniqueKey('copy') };
    const started = await callAdmin<JobBody>('POST', `/admin/placements/${scope.tenantKey}/${scope.orgKey}/restore`, {
      body: { snapshot: snapshot.snapshot, target },
    });
    expect(started.status, started.text).toBe(202);
    const failed = await followJob(started.headers.get('location'));
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/^The restore stopped: The snapshot object snapshots\/.+ is missing or damaged \(load of \w+\)\. /);
    expect(failed.error).toContain(`${target.tenantKey}/${target.orgKey} was emptied again and takes writes`);

    const copy = await tenantClient(target.tenantKey, target.orgKey);
    const db = readTestDatabases().tenants.get((await findTenantDatabase(target)) ?? '') as D1Database;
    const rows = Object.values(await readRestoredRows(db, target)).flat();
    expect(rows).toEqual([]);
    await expectStatus(copy.call('POST', TEMPLATES, { body: templateBody('written') }), 201);
    await expectStatus(copy.call('DELETE', `${TEMPLATES}/written`), 204);
    // A moment before the snapshot comes from the history alone: restored into the same target, it ends.
    expect((await restore(scope, { asOf: before, target })).snapshot).toBeNull();
    const restored = await copy.call<{ items: { templateKey: string }[] }>('GET', `${TEMPLATES}/odata`);
    expect(restored.body.items.map((item) => item.templateKey).sort()).toEqual(['a', 'b']);
  });
});
