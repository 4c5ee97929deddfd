/**
 * The first pieces of the write engine (src/tenant/engine/), before it is wired in: the overlay of pending
 * operations (after-images, merged lists, member rows), the resource stores (a description bound to its table), the
 * operation types, and the condition a create carries on the custom attribute definitions it was validated with, run
 * on a real tenant database.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildRawQuery } from '../../src/db/sql';
import { defineResource } from '../../src/model/resource';
import { customAttributesKind } from '../../src/resources/reference/kinds';
import { refCustomAttributes } from '../../src/resources/reference/tables';
import { emailTemplateSpec } from '../../src/services/email-templates/entity';
import { bindRequestQuery } from '../../src/tenant/compiled';
import { buildDefinitionsCondition } from '../../src/tenant/engine/custom-definitions';
import type {
  DeleteOp,
  InsertOp,
  InsertRowsOp,
  LineOp,
  LinkOp,
  Op,
  RecordLookup,
  RemoveOp,
  RuleWording,
  UpdateOp,
  UpsertOp,
  Values,
} from '../../src/tenant/engine/ops';
import { isMemberThere, memberRowKey, mergeImages, openOverlay } from '../../src/tenant/engine/overlay';
import type { AfterImage, Overlay } from '../../src/tenant/engine/overlay';
import { bindResource, columnOf, findStoreByName, requireStore } from '../../src/tenant/engine/stores';
import type { ResourceStore } from '../../src/tenant/engine/stores';
import { openTestSession } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const STAMP = { on: '2026-01-01T00:00:00.000Z', by: 'tests' };

/** A description that exists only here, bound to no table. */
const UNBOUND = defineResource({
  storage: 'rows',
  name: 'enginePiecesUnbound',
  title: 'Unbound',
  table: 'engine_pieces_unbound',
  fields: {},
  key: [],
});

/** The definitions' store: bound once per runtime (files of one worker share their modules). */
function bindDefinitions(): ResourceStore {
  return findStoreByName(customAttributesKind.name) ?? bindResource(customAttributesKind, refCustomAttributes);
}

describe('overlay of pending operations', () => {
  it('answers a written row, undefined for one never written, null for one deleted', () => {
    const overlay: Overlay = openOverlay();
    overlay.write('t', 'a', { id: 'a', name: 'A' });
    overlay.write('t', 'b', null);
    const image: AfterImage | undefined = overlay.read('t', 'a');
    expect(image).toEqual({ id: 'a', name: 'A' });
    expect(overlay.read('t', 'b')).toBeNull();
    expect(overlay.read('t', 'c')).toBeUndefined();
    expect(overlay.read('other', 'a')).toBeUndefined();
    expect([...overlay.list('t').keys()]).toEqual(['a', 'b']);
    expect(overlay.list('other').size).toBe(0);
  });

  it('merges stored rows with the images: deleted dropped, changed replaced while wanted, new ones added in order', () => {
    const overlay = openOverlay();
    const stored = [
      { id: 'kept', kind: 'x' },
      { id: 'gone', kind: 'x' },
      { id: 'changed', kind: 'x' },
      { id: 'moved', kind: 'x' },
    ];
    overlay.write('t', 'gone', null);
    overlay.write('t', 'changed', { id: 'changed', kind: 'x', name: 'new' });
    overlay.write('t', 'moved', { id: 'moved', kind: 'y' });
    overlay.write('t', 'added', { id: 'added', kind: 'x' });
    overlay.write('t', 'other', { id: 'other', kind: 'y' });
    const rows = mergeImages(
      overlay,
      't',
      stored,
      (row) => row.id,
      (image) => image.kind === 'x',
    );
    expect(rows).toEqual([
      { id: 'kept', kind: 'x' },
      { id: 'changed', kind: 'x', name: 'new' },
      { id: 'added', kind: 'x' },
    ]);
    expect(
      mergeImages(
        openOverlay(),
        't',
        stored,
        (row) => row.id,
        () => false,
      ),
    ).toEqual(stored);
  });

  it('keys member rows by owner and member, stored unless the operations linked or unlinked them', () => {
    const overlay = openOverlay();
    expect(memberRowKey('owner', 'LOC-1')).toBe('owner:LOC-1');
    overlay.write('members', memberRowKey('owner', 'LOC-1'), null);
    overlay.write('members', memberRowKey('owner', 'LOC-2'), { owner: 'owner', member: 'LOC-2' });
    expect(isMemberThere(overlay, 'members', 'owner', 'LOC-1', true)).toBe(false);
    expect(isMemberThere(overlay, 'members', 'owner', 'LOC-2', false)).toBe(true);
    expect(isMemberThere(overlay, 'members', 'owner', 'LOC-3', true)).toBe(true);
    expect(isMemberThere(overlay, 'members', 'owner', 'LOC-3', false)).toBe(false);
  });
});

describe('resource stores', () => {
  it('binds a description to its table once, found by description and by name, columns by field name', () => {
    const store = bindDefinitions();
    expect(requireStore(customAttributesKind)).toBe(store);
    expect(findStoreByName('customAttributes')).toBe(store);
    expect(findStoreByName('noSuchResource')).toBeUndefined();
    expect(columnOf(store, 'entity')).toBe(refCustomAttributes.entity);
    expect(() => columnOf(store, 'noSuchField')).toThrow(/no column for noSuchField/);
    expect(() => bindResource(customAttributesKind, refCustomAttributes)).toThrow(/bound twice/);
    expect(() => requireStore(UNBOUND)).toThrow(/has no table bound/);
  });
});

describe('operations', () => {
  it('describe writes as data, one union of every kind', () => {
    const values: Values = { templateKey: 'welcome', subject: 'Hello' };
    const rules: RuleWording = { paths: ['templateKey'] };
    const target: RecordLookup = { by: 'key', values: ['welcome'] };
    const insert: InsertOp = { kind: 'insert', resource: emailTemplateSpec, id: 'id-1', values, rules };
    const update: UpdateOp = { kind: 'update', resource: emailTemplateSpec, target, set: { subject: 'Hi' }, ifVersion: 1 };
    const remove: DeleteOp = { kind: 'delete', resource: emailTemplateSpec, target: { by: 'id', id: 'id-1' } };
    const upsert: UpsertOp = { kind: 'upsert', resource: customAttributesKind, records: [{ key: 'emailTemplates.channel' }] };
    const removeKey: RemoveOp = { kind: 'remove', resource: customAttributesKind, key: 'emailTemplates.channel' };
    const ops: Op[] = [insert, update, remove, upsert, removeKey];
    expect(ops.map((op) => op.kind)).toEqual(['insert', 'update', 'delete', 'upsert', 'remove']);
    expectTypeOf<LinkOp['kind']>().toEqualTypeOf<'link' | 'unlink'>();
    expectTypeOf<LineOp['kind']>().toEqualTypeOf<'addLine' | 'changeLine' | 'removeLine'>();
    expectTypeOf<InsertRowsOp['kind']>().toEqualTypeOf<'insertRows'>();
  });
});

describe('custom attribute definitions condition', () => {
  /** Whether the condition holds on the tenant/org's stored definitions, asked of its database. */
  async function holds(client: { readonly tenant: string; readonly org: string }, listed: Parameters<typeof buildDefinitionsCondition>[2]) {
    bindDefinitions();
    const scope = { tenantKey: client.tenant, orgKey: client.org };
    const condition = buildDefinitionsCondition(scope, 'emailTemplates', listed);
    const statement = bindRequestQuery(buildRawQuery(sql`SELECT ${condition} AS holds`), { holds: sql<number>`holds` });
    const [rows] = await openTestSession(client, { stamp: STAMP }).readBound('read', [statement]);
    return Number((rows as { holds: number }[])[0]?.holds) === 1;
  }

  it('holds exactly for the stored definitions of the entity (none, or the same names, types and required flags)', async () => {
    const client = await freshTenant('engine');
    expect(await holds(client, null)).toBe(true);
    const channel = { key: 'emailTemplates.channel', entity: 'emailTemplates', name: 'channel', type: 'string', required: true };
    expect((await client.call('PUT', '/referenceData/customAttributes', { body: [channel] })).status).toBe(200);
    expect(await holds(client, null)).toBe(false);
    expect(await holds(client, { count: 1, json: JSON.stringify([['channel', 'string', 1]]) })).toBe(true);
    expect(await holds(client, { count: 1, json: JSON.stringify([['channel', 'string', 0]]) })).toBe(false);
    expect(
      await holds(client, {
        count: 2,
        json: JSON.stringify([
          ['channel', 'string', 1],
          ['other', 'number', 0],
        ]),
      }),
    ).toBe(false);
  });
});
