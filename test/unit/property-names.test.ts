/** Case-insensitive binding of body property names. */
import { describe, expect, it } from 'vitest';
import { bindPropertyNames } from '../../src/validation/property-names';

const DECLARED = ['templateKey', 'subject', 'isActive'];

describe('bindPropertyNames', () => {
  it.each([
    ['exact names', { templateKey: 'a', subject: 's' }, { templateKey: 'a', subject: 's' }],
    ['PascalCase', { TemplateKey: 'a', Subject: 's' }, { templateKey: 'a', subject: 's' }],
    ['lower and upper case', { templatekey: 'a', SUBJECT: 's' }, { templateKey: 'a', subject: 's' }],
    ['the exact spelling wins', { TemplateKey: 'b', templateKey: 'a' }, { templateKey: 'a' }],
    ['unknown names stay as sent', { Colour: 'blue', custom_X: 1 }, { Colour: 'blue', custom_X: 1 }],
  ])('%s', (_name, body, values) => {
    expect(bindPropertyNames(body, DECLARED)).toEqual({ values, errors: [] });
  });

  it('refuses two other spellings of one name, naming both (with the body path)', () => {
    const bound = bindPropertyNames({ TemplateKey: 'a', TEMPLATEKEY: 'b' }, DECLARED, '[2]');
    expect(bound.errors.map((error) => error.path)).toEqual(['[2].TemplateKey', '[2].TEMPLATEKEY']);
    expect(bound.errors[0]?.message).toEqual({
      key: 'sameProperty',
      params: { names: "'TemplateKey', 'TEMPLATEKEY'", field: 'templateKey' },
    });
  });
});
