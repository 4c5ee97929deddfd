/** Upserts by natural key: what a file row changes on its stored record, and the members it adds. */
import { describe, expect, it } from 'vitest';
import { collectMemberAdds, heldKey, splitMembers } from '../../src/services/imports/members';
import { diffStored } from '../../src/services/imports/upsert';
import { routesImportTemplate } from '../../src/services/routes/import-template';
import { routeStore } from '../../src/services/routes/table';

const stored = {
  id: 'r-1',
  version: 4,
  routeKey: 'R1',
  company: 'C1',
  description: 'Weekly',
  remarks: null,
  isActive: true,
  customAttributes: '{"colour":"red","size":2}',
};

describe('diffStored', () => {
  it('sets the attributes that differ, keeping their stored values; the key fields are never set', () => {
    const diff = diffStored(routeStore, stored, { routeKey: 'R1', company: 'C1', description: 'Daily', remarks: 'x', isActive: false }, {});
    expect(diff).toEqual({
      update: {
        id: 'r-1',
        expectedVersion: 4,
        set: { description: 'Daily', remarks: 'x', isActive: false },
        before: { description: 'Weekly', remarks: null, isActive: true },
        members: [],
      },
    });
  });

  it('merges custom attributes into the stored ones, and answers no update when nothing differs', () => {
    expect(diffStored(routeStore, stored, { description: 'Weekly' }, { colour: 'red' })).toEqual({ update: undefined });
    const diff = diffStored(routeStore, stored, {}, { size: 3 });
    expect(diff).toMatchObject({
      update: { set: { customAttributes: '{"colour":"red","size":3}' }, before: { customAttributes: '{"colour":"red","size":2}' } },
    });
  });
});

describe('members of an upsert', () => {
  it('keeps member columns out of the create body, distinct; adds only the keys the record does not hold', () => {
    const split = splitMembers(routesImportTemplate, { routeKey: 'R1', locations: ['L1', 'L2', 'L1'], tools: ['T1'] });
    expect(split).toEqual({ body: { routeKey: 'R1' }, members: { locations: ['L1', 'L2'], tools: ['T1'] } });
    const held = new Set([heldKey('locations', 'r-1', 'L1'), heldKey('tools', 'r-1', 'T1')]);
    expect(collectMemberAdds(split.members, 'r-1', held)).toEqual([{ column: 'locations', keys: ['L2'] }]);
  });
});
