/**
 * The tenant database is told what each batch is by its caller (src/db/client.ts, `BatchKind`), never by reading SQL:
 * drizzle's own runs are reads, the unit of work's commit declares a write. A statement run as D1's write call (`run()`) on a view
 * that reads is refused, and the cross-tenant handles refuse any write.
 */
import { createExecutionContext, env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { declareBatchKind } from '../../src/db/client';
import type { Database, TenantScope } from '../../src/db/client';
import type { WriteStatement } from '../../src/db/writes';
import { buildWorkerPlatform } from '../../src/runtime/cloudflare/platform';
import { emailTemplates } from '../../src/services/email-templates/table';
import { TENANT_MODEL } from '../../src/tenant-model';
import { stageReturning, stageStatements } from '../../src/tenant/staged-statements';
import { commitAlone, openTenantUnit } from '../../src/tenant/unit-of-work';
import { tenantClient } from '../helpers/api';
import { uniqueKey } from '../helpers/tenants';

/** Why a run failed: drizzle wraps the database's error ("Failed query: ...") as its cause. */
async function readRefusal(run: PromiseLike<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  }
  throw new Error('the run was not refused');
}

/** Commits `build`'s statements alone in a unit of work of `db` (its commit declares a `write`). */
function commitStatements(db: Database, scope: TenantScope, build: (db: Database) => WriteStatement[]) {
  const unit = openTenantUnit({ db, scope, stamp: { on: new Date().toISOString(), by: 'batch-kinds' } });
  return commitAlone(unit, (batch) => batch.stage(stageStatements('email_templates', (context) => build(context.db))));
}

describe('batch kinds', () => {
  it('a tenant database reads by default and writes only where a write is declared', async () => {
    const scope = { tenantKey: uniqueKey('acme'), orgKey: uniqueKey('kinds') };
    await tenantClient(scope.tenantKey, scope.orgKey);
    const db = await buildWorkerPlatform(env, createExecutionContext(), TENANT_MODEL).openTenantDatabase(scope);
    const mine = eq(emailTemplates.tenantKey, scope.tenantKey);
    expect(await readRefusal(db.delete(emailTemplates).where(mine))).toContain('run() on a tenant database view that reads');
    await expect(db.select().from(emailTemplates).where(mine)).resolves.toEqual([]);
    const unit = openTenantUnit({ db, scope, stamp: { on: new Date().toISOString(), by: 'batch-kinds' } });
    const returned = { id: emailTemplates.id };
    const removal = stageReturning('email_templates', returned, (context) =>
      context.db.delete(emailTemplates).where(mine).returning(returned),
    );
    const deleted = await commitAlone(unit, (batch) => batch.stage(removal));
    expect(deleted).toEqual([]);
    await expect(declareBatchKind(db, 'write').delete(emailTemplates).where(mine)).resolves.toBeDefined();
  });

  it('a write awaited on a view that reads (returning rows) fails loudly', async () => {
    const scope = { tenantKey: uniqueKey('acme'), orgKey: uniqueKey('kinds') };
    const client = await tenantClient(scope.tenantKey, scope.orgKey);
    const created = await client.call('POST', '/operations/emailTemplates', {
      body: {
        templateKey: 'loud',
        subject: 'S',
        emailTemplateType: 1,
        notificationBody: 'B',
        culture: 'en-US',
      },
    });
    expect(created.status).toBe(201);
    const db = await buildWorkerPlatform(env, createExecutionContext(), TENANT_MODEL).openTenantDatabase(scope);
    const mine = eq(emailTemplates.tenantKey, scope.tenantKey);
    const update = db.update(emailTemplates).set({ subject: 'T' }).where(mine).returning({ id: emailTemplates.id });
    expect(await readRefusal(update)).toContain('A write ran on a tenant database view that reads');
  });

  it('the cross-tenant handles refuse writes', async () => {
    const platform = buildWorkerPlatform(env, createExecutionContext(), TENANT_MODEL);
    const [db] = await platform.openEveryTenantDatabase();
    if (!db) throw new Error('no tenant database');
    const none = eq(emailTemplates.tenantKey, uniqueKey('nobody'));
    await expect(db.select({ id: emailTemplates.id }).from(emailTemplates).where(none)).resolves.toEqual([]);
    const scope = { tenantKey: uniqueKey('nobody'), orgKey: 'none' };
    const refused = commitStatements(db, scope, (unitDb) => [unitDb.delete(emailTemplates).where(none)]);
    expect(await readRefusal(refused)).toContain('cross-tenant reads only');
    expect(await readRefusal(db.delete(emailTemplates).where(none))).toContain('cross-tenant reads only');
  });
});
