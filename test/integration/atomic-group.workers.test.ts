/**
 * Atomic groups of the tenant unit of work (src/tenant/atomic-group.ts), driven directly: a group write's prediction
 * never silently differs from what is committed (a record changed by someone else between the prediction and the
 * commit aborts the whole group, attributed to the request whose write was planned on it), a write that cannot be
 * predicted is refused, and a refused commit is attributed to the member whose writes refuse it.
 */
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { sqlBuilder } from '../../src/db/sql';
import { ApiError } from '../../src/errors/api-error';
import { changeEvents } from '../../src/events/table';
import { openEntityRepository } from '../../src/resources/entities/repository';
import { emailTemplateStore } from '../../src/services/email-templates/table';
import { openAtomicGroup } from '../../src/tenant/atomic-group';
import { runGroupWrite } from '../../src/tenant/session';
import type { BoundStatement } from '../../src/db/sql';
import { commitAlone } from '../../src/tenant/unit-of-work';
import { freshTenant } from '../helpers/tenants';
import { openClientD1, openTestSession } from '../helpers/tenant-db';

const STAMP = { on: '2026-01-02T03:04:05.000Z', by: 'atomic-group-test' };

function templateRow(templateKey: string) {
  return { id: crypto.randomUUID(), templateKey, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' };
}

async function openGroup(label: string) {
  const client = await freshTenant(label);
  const meter = { roundTrips: 0 };
  const d1 = await openClientD1(client);
  // A session outside any group prepares the stored state; the group's batch commits on it.
  const plainUnit = openTestSession(client, { stamp: STAMP, meter });
  const scope = plainUnit.scope;
  const plain = { unit: plainUnit, templates: openEntityRepository(plainUnit, emailTemplateStore) };
  const write = (statements: readonly BoundStatement<unknown>[]) => runGroupWrite(plainUnit, statements);
  const group = openAtomicGroup((request) => new ApiError('ValidationFailed', `refused ${request.id}`));
  const member = (id: string, index: number) => {
    const unit = openTestSession(client, { stamp: STAMP, meter, group: group.join({ id, index }) });
    return { unit, templates: openEntityRepository(unit, emailTemplateStore) };
  };
  const events = async () =>
    (
      await plainUnit.read(
        sqlBuilder
          .select({ changeType: changeEvents.changeType, key: changeEvents.recordKey })
          .from(changeEvents)
          .where(and(eq(changeEvents.tenantKey, scope.tenantKey), eq(changeEvents.orgKey, scope.orgKey)))
          .orderBy(changeEvents.seq),
      )
    ).map((event) => `${event.changeType}:${event.key}`);
  return { d1, write, scope, meter, plain, group, member, events };
}

describe('atomic groups of the unit of work', () => {
  it('predicts results through the group (what earlier members wrote) and commits every member in one round trip', async () => {
    const { meter, plain, group, member, write, events } = await openGroup('group-ok');
    await commitAlone(plain.unit, (batch) => plain.templates.stageCreate(batch, { row: templateRow('stored') }));
    const first = member('1', 0);
    const second = member('2', 1);
    meter.roundTrips = 0;
    await commitAlone(first.unit, (batch) => first.templates.stageCreate(batch, { row: templateRow('new') }));
    const updated = await commitAlone(second.unit, (batch) =>
      second.templates.stageUpdate(batch, { lookup: { by: 'key', values: ['new'] }, expectedVersion: 1 }, { subject: 'T' }),
    );
    const same = await commitAlone(second.unit, (batch) =>
      second.templates.stageUpdate(batch, { lookup: { by: 'key', values: ['new'] } }, { subject: 'T' }),
    );
    const deleted = await commitAlone(second.unit, (batch) =>
      second.templates.stageDelete(batch, { lookup: { by: 'key', values: ['stored'] } }),
    );
    expect([updated, same, deleted]).toEqual([2, undefined, true]);
    expect(await second.templates.find({ by: 'key', values: ['new'] })).toMatchObject({ subject: 'T', version: 2 });
    expect(await second.templates.find({ by: 'key', values: ['stored'] })).toBeUndefined();
    // Nothing is written before the group commits: the stored record is only read (one round trip for it).
    expect(await plain.templates.find({ by: 'key', values: ['new'] })).toBeUndefined();
    const reads = meter.roundTrips;
    expect(await group.commit(write)).toBeUndefined();
    expect(meter.roundTrips).toBe(reads + 1);
    expect(await plain.templates.find({ by: 'key', values: ['new'] })).toMatchObject({ subject: 'T', version: 2 });
    expect(await plain.templates.find({ by: 'key', values: ['stored'] })).toBeUndefined();
    expect(await events()).toEqual(['created:stored', 'created:new', 'updated:new', 'deleted:stored']);
  });

  it('a record changed by someone else after the prediction aborts the whole group: 409 for the request planned on it', async () => {
    const { d1, scope, plain, group, member, write, events } = await openGroup('group-changed');
    await commitAlone(plain.unit, (batch) => plain.templates.stageCreate(batch, { row: templateRow('c') }));
    const first = member('a', 0);
    const second = member('b', 1);
    await commitAlone(first.unit, (batch) => first.templates.stageCreate(batch, { row: templateRow('other') }));
    const version = await commitAlone(second.unit, (batch) =>
      second.templates.stageUpdate(batch, { lookup: { by: 'key', values: ['c'] } }, { subject: 'Mine' }),
    );
    expect(version).toBe(2);
    await d1
      .prepare('UPDATE email_templates SET subject = ?, version = version + 1 WHERE tenant_key = ? AND org_key = ? AND template_key = ?')
      .bind('Theirs', scope.tenantKey, scope.orgKey, 'c')
      .run();
    const failure = await group.commit(write);
    expect(failure?.id).toBe('b');
    expect(failure?.error).toBeInstanceOf(ApiError);
    expect(failure?.error).toMatchObject({ code: 'Conflict', status: 409 });
    expect(await plain.templates.find({ by: 'key', values: ['c'] })).toMatchObject({ subject: 'Theirs', version: 2 });
    expect(await plain.templates.find({ by: 'key', values: ['other'] })).toBeUndefined();
    expect(await events()).toEqual(['created:c']);
  });

  it('refuses a staged write that cannot be predicted (and an update computed by SQL); the group writes nothing', async () => {
    const { plain, group, member, write, events } = await openGroup('group-refused');
    await commitAlone(plain.unit, (batch) => plain.templates.stageCreate(batch, { row: templateRow('r') }));
    const first = member('x', 0);
    await commitAlone(first.unit, (batch) => first.templates.stageCreate(batch, { row: templateRow('kept-out') }));
    const unpredictable = commitAlone(member('y', 1).unit, (batch) =>
      batch.stage({ plan: () => ({ table: 'none', statements: [], settle: () => 1 }) }),
    );
    await expect(unpredictable).rejects.toMatchObject({ code: 'ValidationFailed', detail: 'refused y' });
    const merge = member('z', 2);
    const computed = commitAlone(merge.unit, (batch) =>
      merge.templates.stageUpdate(batch, { lookup: { by: 'key', values: ['r'] } }, { customAttributes: sql`json('{}')` }),
    );
    await expect(computed).rejects.toMatchObject({ detail: 'refused z' });
    // The executor never commits a group with a refused member; nothing was written meanwhile.
    expect(await plain.templates.find({ by: 'key', values: ['kept-out'] })).toBeUndefined();
    expect(await events()).toEqual(['created:r']);
    // Had it been committed, only the predicted member's write would run: the group stays whole or nothing.
    expect(await group.commit(write)).toBeUndefined();
    expect(await events()).toEqual(['created:r', 'created:kept-out']);
  });

  it('attributes a refused commit to the member whose write refuses it (a key another member took first)', async () => {
    const { plain, group, member, write, events } = await openGroup('group-duplicate');
    const members = ['m0', 'm1', 'm2', 'm3', 'm4'].map((id, index) => member(id, index));
    const keys = ['k0', 'k1', 'k2', 'k1', 'k4'];
    for (const [index, { unit, templates }] of members.entries()) {
      await commitAlone(unit, (batch) => templates.stageCreate(batch, { row: templateRow(keys[index] ?? '') }));
    }
    const failure = await group.commit(write);
    expect(failure?.id).toBe('m3');
    expect(failure?.error).toMatchObject({ code: 'DuplicateKey', status: 400 });
    expect(await plain.templates.find({ by: 'key', values: ['k0'] })).toBeUndefined();
    expect(await events()).toEqual([]);
  });
});
