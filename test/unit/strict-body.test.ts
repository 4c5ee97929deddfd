import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/messages/catalogue';
import { parseStrictBody } from '../../src/validation/strict-body';

const Schema = v.strictObject({ key: v.string(), name: v.string(), note: v.optional(v.string()) });

function describeErrors(input: unknown, prefix?: string) {
  const result = parseStrictBody(Schema, input, prefix);
  if (result.success) return [];
  return result.errors.map((error) => [error.path, formatMessage(error.message, 'en-US')]);
}

describe('parseStrictBody', () => {
  it('names every unknown property (valibot stops at the first), and never a declared one', () => {
    expect(describeErrors({ key: 'a', name: 'b', colour: 'red', description: 'x', constructor: 1 })).toEqual([
      ['colour', 'colour is not a property of this request: remove it or correct its name'],
      ['description', 'description is not a property of this request: remove it or correct its name'],
      ['constructor', 'constructor is not a property of this request: remove it or correct its name'],
    ]);
  });

  it('names the declared fields that are bad beside the unknown ones, under the prefix', () => {
    expect(describeErrors({ key: 1, colour: 'red' }, '[2]').map(([path]) => path)).toEqual(['[2].key', '[2].name', '[2].colour']);
  });

  it('answers the output of a valid input', () => {
    expect(parseStrictBody(Schema, { key: 'a', name: 'b' })).toEqual({ success: true, output: { key: 'a', name: 'b' } });
  });
});
