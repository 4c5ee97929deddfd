/**
 * The tenant executor is told what each batch is by its caller (src/db/client.ts, `BatchKind`), never by reading SQL:
 * a session's reads are reads, its commit declares a write. Drizzle only builds statements (src/db/sql.ts): a builder
 * awaited directly (outside the executor) is refused, the read side of a session takes selects only (a write there
 * does not compile), and the cross-tenant scans read only.
 */
import { createExecutionContext, env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sqlBuilder } from '../../src/db/sql';
import { buildWorkerPlatform } from '../../src/runtime/cloudflare/platform';
import { emailTemplates } from '../../src/services/email-templates/table';
import { TENANT_MODEL } from '../../src/tenant-model';
import { bindCompiled, bindRequestStatement } from '../../src/tenant/compiled';
import { openTenantSession } from '../../src/tenant/session';
import type { TenantReader } from '../../src/tenant/session';
import type { DatabaseScan } from '../../src/tenant/placement/scan';
import { stageReturning } from '../../src/tenant/staged-statements';
import { commitAlone } from '../../src/tenant/unit-of-work';
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

const REFUSED = 'sqlBuilder builds statements; the tenant executor runs them';

/** Statements a read side must never be given: none of these compiles (checked by the type checker, never run). */
function writeThroughReads(tenant: TenantReader, scan: DatabaseScan): void {
  const mine = eq(emailTemplates.tenantKey, 'nobody');
  // @ts-expect-error a session's read side takes selects only
  void tenant.read(sqlBuilder.delete(emailTemplates).where(mine));
  // @ts-expect-error not even one that returns rows
  void tenant.read(sqlBuilder.update(emailTemplates).set({ subject: 'T' }).where(mine).returning({ id: emailTemplates.id }));
  // @ts-expect-error a cross-tenant scan reads only
  void scan.read(sqlBuilder.delete(emailTemplates).where(mine));
}

describe('batch kinds', () => {
  it('a read side takes selects only: writes given to it do not compile (the type checker runs over this file)', () => {
    expect(writeThroughReads).toBeTypeOf('function');
  });

  it('a tenant session reads by default and writes only where a write is declared', async () => {
    const scope = { tenantKey: uniqueKey('acme'), orgKey: uniqueKey('kinds') };
    await tenantClient(scope.tenantKey, scope.orgKey);
    const executor = buildWorkerPlatform(env, createExecutionContext(), TENANT_MODEL).openTenant(scope);
    const mine = eq(emailTemplates.tenantKey, scope.tenantKey);
    expect(await readRefusal(sqlBuilder.delete(emailTemplates).where(mine))).toContain(REFUSED);
    const unit = openTenantSession({ executor, stamp: { on: new Date().toISOString(), by: 'batch-kinds' } });
    await expect(unit.read(sqlBuilder.select().from(emailTemplates).where(mine))).resolves.toEqual([]);
    const returned = { id: emailTemplates.id };
    const removal = stageReturning('email_templates', returned, () => sqlBuilder.delete(emailTemplates).where(mine).returning(returned));
    const deleted = await commitAlone(unit, (batch) => batch.stage(removal));
    expect(deleted).toEqual([]);
    const declared = bindCompiled(bindRequestStatement(sqlBuilder.delete(emailTemplates).where(mine)), {});
    await expect(executor.run('write', [declared])).resolves.toEqual([[]]);
  });

  it('a write awaited outside the executor (returning rows) fails loudly and writes nothing', async () => {
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
    const mine = eq(emailTemplates.tenantKey, scope.tenantKey);
    const update = sqlBuilder.update(emailTemplates).set({ subject: 'T' }).where(mine).returning({ id: emailTemplates.id });
    expect(await readRefusal(update)).toContain(REFUSED);
    const executor = buildWorkerPlatform(env, createExecutionContext(), TENANT_MODEL).openTenant(scope);
    const unit = openTenantSession({ executor, stamp: { on: new Date().toISOString(), by: 'batch-kinds' } });
    expect(await unit.read(sqlBuilder.select({ subject: emailTemplates.subject }).from(emailTemplates).where(mine))).toEqual([
      { subject: 'S' },
    ]);
  });

  it('the cross-tenant scans read, and a builder awaited beside them is refused', async () => {
    const platform = buildWorkerPlatform(env, createExecutionContext(), TENANT_MODEL);
    const [scan] = platform.scanTenantDatabases();
    if (!scan) throw new Error('no tenant database');
    const none = eq(emailTemplates.tenantKey, uniqueKey('nobody'));
    await expect(scan.read(sqlBuilder.select({ id: emailTemplates.id }).from(emailTemplates).where(none))).resolves.toEqual([]);
    expect('write' in scan || 'run' in scan).toBe(false);
    expect(await readRefusal(sqlBuilder.delete(emailTemplates).where(none))).toContain(REFUSED);
  });
});
