/** PATCH and PUT bodies of a record (src/resources/entities/update-body.ts, stored-compare.ts): pure. */
import { describe, expect, it } from 'vitest';
import { compareReadOnly, compareRelated } from '../../src/resources/entities/stored-compare';
import { listReadOnlyFields, parseUpdateBody } from '../../src/resources/entities/update-body';
import { emailTemplateSpec } from '../../src/services/email-templates/entity';

const paths = (errors: readonly { path: string }[]) => errors.map((error) => error.path).sort();

describe('parseUpdateBody', () => {
  it('merge: only what is given, names bound in any case, annotations ignored, custom values split', () => {
    const input = parseUpdateBody(
      emailTemplateSpec,
      {
        Subject: 'Hi',
        description: null,
        '@odata.etag': 'W/"1"',
        'subject@odata.type': '#String',
        custom_team: 'ops',
        customAttributes: { owner: 'ana' },
        version: 3,
      },
      'merge',
      [],
    );
    expect(input.errors).toEqual([]);
    expect(input.values).toEqual({ subject: 'Hi', description: null });
    expect(input.custom).toEqual({ team: 'ops', owner: 'ana' });
    expect(input.readOnly).toEqual({ version: 3 });
  });

  it('merge: null for a required field, bad values and unknown properties are named together', () => {
    const input = parseUpdateBody(
      emailTemplateSpec,
      { templateKey: null, emailTemplateType: 'pdf', colour: 1, locations: [] },
      'merge',
      [],
    );
    expect(paths(input.errors)).toEqual(['colour', 'emailTemplateType', 'locations', 'templateKey']);
  });

  it('replace: every field, absent optional ones null and isActive true; missing required ones named', () => {
    const whole = { templateKey: 'k', subject: 's', emailTemplateType: 2, notificationBody: 'b', culture: 'pt-pt' };
    const input = parseUpdateBody(emailTemplateSpec, whole, 'replace', []);
    expect(input.values).toEqual({ ...whole, culture: 'pt-PT', description: null, isActive: true });
    expect(paths(parseUpdateBody(emailTemplateSpec, { subject: 's' }, 'replace', []).errors)).toEqual([
      'culture',
      'emailTemplateType',
      'notificationBody',
      'templateKey',
    ]);
  });

  it('related properties are kept to be compared, never written', () => {
    const input = parseUpdateBody(emailTemplateSpec, { Locations: ['L1'] }, 'merge', ['locations']);
    expect([input.errors, input.values, input.related]).toEqual([[], {}, { locations: ['L1'] }]);
  });
});

describe('comparing with the stored record', () => {
  const stored = {
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    version: 4,
    createdOn: '2026-01-31T10:00:00.000Z',
    createdBy: 'ana',
    locations: [
      { id: 'a', key: 'L1', description: 'Boiler room' },
      { id: 'b', key: 'L2', description: 'Roof' },
    ],
  };
  const fields = listReadOnlyFields(emailTemplateSpec);

  it('read-only values equal to the stored ones (as their field reads them) pass; others are named', () => {
    const same = { id: stored.id.toUpperCase(), version: '4', createdOn: '2026-01-31T10:00:00Z', createdBy: 'ana' };
    expect(compareReadOnly(same, fields, stored)).toEqual([]);
    expect(paths(compareReadOnly({ id: 'x', version: 5, createdBy: 'bob', modifiedBy: null }, fields, stored))).toEqual([
      'createdBy',
      'id',
      'version',
    ]);
  });

  it('a related list as read (items or keys, in any order) passes; another list is named', () => {
    expect(compareRelated({ locations: ['L2', 'L1'] }, stored)).toEqual([]);
    expect(compareRelated({ locations: stored.locations }, stored)).toEqual([]);
    expect(compareRelated({ locations: [{ key: 'L1' }, { id: 'b' }] }, stored)).toEqual([]);
    for (const changed of [['L1'], ['L1', 'L1'], ['L1', 'L3'], [{ id: 'a', description: 'Cellar' }, 'L2'], null, 'L1,L2']) {
      expect(paths(compareRelated({ locations: changed }, stored)), JSON.stringify(changed)).toEqual(['locations']);
    }
    expect(compareRelated({ tools: null }, { tools: [] })).toEqual([]);
  });
});
