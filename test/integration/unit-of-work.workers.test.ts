/**
 * The write batches of a tenant session (src/tenant/unit-of-work.ts): several staged writes commit as one D1 batch (one
 * round trip, one transaction) with their audit stamp and outbox events added on the commit path; each write's result,
 * or the error attributed to it, is read from its handle after the commit.
 */
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { sqlBuilder } from '../../src/db/sql';
import { ApiError } from '../../src/errors/api-error';
import { changeEvents } from '../../src/events/table';
import { openEntityRepository } from '../../src/resources/entities/repository';
import { emailTemplateStore } from '../../src/services/email-templates/table';
import { freshTenant } from '../helpers/tenants';
import { openTestSession } from '../helpers/tenant-db';

const STAMP = { on: '2026-01-02T03:04:05.000Z', by: 'unit-of-work-test' };

function templateRow(templateKey: string) {
  return { id: crypto.randomUUID(), templateKey, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' };
}

async function openUnit(label: string) {
  const client = await freshTenant(label);
  const meter = { roundTrips: 0 };
  const unit = openTestSession(client, { stamp: STAMP, meter });
  return { unit, meter, scope: unit.scope, templates: openEntityRepository(unit, emailTemplateStore) };
}

describe('tenant unit of work', () => {
  it('commits the writes of one batch in one round trip, each with its stamp, its event and its result', async () => {
    const { unit, meter, scope, templates } = await openUnit('uow-ok');
    const first = unit.openBatch();
    const existing = templateRow('existing');
    // A service's own write is planned with the unit's context at commit.
    const own = first.stage({ plan: (context) => ({ table: 'none', statements: [], settle: () => context.stamp.by }) });
    const created = templates.stageCreate(first, { row: existing });
    await first.commit();
    expect([created.result(), own.result()]).toEqual([undefined, STAMP.by]);

    meter.roundTrips = 0;
    const batch = unit.openBatch();
    const a = templates.stageCreate(batch, { row: templateRow('a') });
    const b = templates.stageCreate(batch, { row: templateRow('b') });
    const update = templates.stageUpdate(batch, { lookup: { by: 'key', values: ['existing'] }, expectedVersion: 1 }, { subject: 'T' });
    const stale = templates.stageUpdate(batch, { lookup: { by: 'key', values: ['a'] }, expectedVersion: 7 }, { subject: 'T' });
    expect(() => a.result()).toThrow(/before its batch commits/);
    await batch.commit();
    expect(meter.roundTrips).toBe(1);
    expect([a.result(), b.result(), update.result(), stale.result()]).toEqual([undefined, undefined, 2, undefined]);

    const row = await templates.find({ by: 'key', values: ['existing'] });
    expect(row).toMatchObject({ subject: 'T', version: 2, createdBy: STAMP.by, modifiedOn: STAMP.on, tenantKey: scope.tenantKey });
    const stored = await templates.find({ by: 'key', values: ['b'] });
    expect(stored).toMatchObject({ version: 1, createdOn: STAMP.on, createdBy: STAMP.by, isActive: true });
    const events = await unit.read(
      sqlBuilder
        .select({ changeType: changeEvents.changeType, key: changeEvents.recordKey, actor: changeEvents.actor })
        .from(changeEvents)
        .where(and(eq(changeEvents.tenantKey, scope.tenantKey), eq(changeEvents.orgKey, scope.orgKey)))
        .orderBy(changeEvents.seq),
    );
    expect(events).toEqual([
      { changeType: 'created', key: 'existing', actor: STAMP.by },
      { changeType: 'created', key: 'a', actor: STAMP.by },
      { changeType: 'created', key: 'b', actor: STAMP.by },
      { changeType: 'updated', key: 'existing', actor: STAMP.by },
    ]);
  });

  it('refuses the whole batch on one unique violation and attributes DuplicateKey to that write', async () => {
    const { unit, templates } = await openUnit('uow-dup');
    const first = unit.openBatch();
    templates.stageCreate(first, { row: templateRow('taken') });
    await first.commit();

    const batch = unit.openBatch();
    const fresh = templates.stageCreate(batch, { row: templateRow('fresh') });
    const duplicate = templates.stageCreate(batch, { row: templateRow('taken') });
    const removal = templates.stageDelete(batch, { lookup: { by: 'key', values: ['taken'] } });
    const failure = await batch.commit().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: 'DuplicateKey' });
    expect(() => duplicate.result()).toThrow(/taken/);
    expect(() => fresh.result()).toThrow(/UNIQUE/);
    expect(() => removal.result()).toThrow(/UNIQUE/);
    // One transaction: nothing of the batch was written.
    expect(await templates.find({ by: 'key', values: ['fresh'] })).toBeUndefined();
    expect(await templates.find({ by: 'key', values: ['taken'] })).toMatchObject({ version: 1 });
  });

  it('attributes a unique violation between two writes of the batch to the later one', async () => {
    const { unit, templates } = await openUnit('uow-twin');
    const batch = unit.openBatch();
    const first = templates.stageCreate(batch, { row: templateRow('twin') });
    const second = templates.stageCreate(batch, { row: templateRow('twin') });
    await expect(batch.commit()).rejects.toMatchObject({ code: 'DuplicateKey' });
    expect(() => second.result()).toThrow(/twin/);
    expect(() => first.result()).toThrow(/UNIQUE/);
    expect(await templates.find({ by: 'key', values: ['twin'] })).toBeUndefined();
  });
});
