/** The valibot schema of each field kind, and the conversions it makes on input. */
import * as v from 'valibot';
import { canonicalizeReferenceKey } from '../reference/kinds';
import { describeEnum, ENUM_METADATA, parseEnumValue } from '../../validation/enums';
import { issueMessage } from '../../messages/catalogue';
import { buildBooleanSchema } from '../../validation/booleans';
import { parseOrIssue } from '../../validation/issues';
import { isGuid, normalizeDateTime, normalizeDecimal, parseInteger } from '../../validation/values';
import type { FieldSpec } from './spec';

const DEFAULT_STRING_MAX = 255;

type AnySchema = v.GenericSchema<unknown, unknown>;

/** A string field: its length, non-empty when required, its own text check, a reference key's canonical spelling. */
function buildStringSchema(name: string, field: FieldSpec): AnySchema {
  const field_ = { field: name };
  const max = field.maxLength ?? DEFAULT_STRING_MAX;
  const base = v.pipe(v.string(issueMessage('mustBeString', field_)), v.maxLength(max, issueMessage('tooLong', { ...field_, max })));
  const nonEmpty = field.required
    ? v.pipe(
        base,
        v.check((s) => s.trim() !== '', issueMessage('mustNotBeEmpty', field_)),
      )
    : base;
  const checkText = field.checkText;
  const checked = checkText
    ? v.pipe(
        nonEmpty,
        v.check(
          (s) => checkText(name, s) === undefined,
          (issue) => {
            const problem = typeof issue.input === 'string' ? checkText(name, issue.input) : undefined;
            return problem ? issueMessage(problem.key, problem.params) : issueMessage('notValid', field_);
          },
        ),
      )
    : nonEmpty;
  // Keys of a kind that compares case-insensitively (cultures, currencies) are read in their canonical spelling.
  const reference = field.reference;
  return reference
    ? v.pipe(
        checked,
        v.transform((key) => canonicalizeReferenceKey(reference, key)),
      )
    : checked;
}

/** An integer field: a safe integer, given as a number or as its digits. */
function buildIntegerSchema(name: string): AnySchema {
  const field_ = { field: name };
  return v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(/^[+-]?\d+$/))], issueMessage('mustBeInteger', field_)),
    parseOrIssue(
      (input: number | string) => {
        const value = typeof input === 'number' ? input : parseInteger(input, 'any');
        return value !== undefined && Number.isSafeInteger(value) ? value : undefined;
      },
      'mustBeInteger',
      field_,
    ),
  );
}

/** An enum field: one of its members, by name or by number. */
function buildEnumSchema(name: string, field: FieldSpec): AnySchema {
  const spec = field.enum;
  if (!spec) throw new Error(`Field ${name} is an enum without members`);
  const oneOf = { field: name, choices: describeEnum(spec) };
  return v.pipe(
    v.union([v.number(), v.string()], issueMessage('mustBeOneOf', oneOf)),
    v.metadata({ [ENUM_METADATA]: spec }),
    parseOrIssue((input: number | string) => parseEnumValue(spec, input), 'mustBeOneOf', oneOf),
  );
}

/** The valibot schema of one field's value (without optionality); its messages are the catalogue's. */
export function buildFieldSchema(name: string, field: FieldSpec): AnySchema {
  const field_ = { field: name };
  switch (field.kind) {
    case 'string':
      return buildStringSchema(name, field);
    case 'int':
      return buildIntegerSchema(name);
    case 'bool':
      return buildBooleanSchema(issueMessage('mustBeBoolean', field_));
    case 'decimal':
      return v.pipe(
        v.union([v.number(), v.string()], issueMessage('mustBeDecimal', field_)),
        parseOrIssue(normalizeDecimal, 'mustBeDecimal', field_),
      );
    case 'datetime':
      return v.pipe(v.string(issueMessage('mustBeDateTime', field_)), parseOrIssue(normalizeDateTime, 'mustBeDateTime', field_));
    case 'guid':
      return v.pipe(
        v.string(issueMessage('mustBeGuid', field_)),
        v.check((s) => isGuid(s), issueMessage('mustBeGuid', field_)),
        v.transform((s) => s.toLowerCase()),
      );
    case 'enum':
      return buildEnumSchema(name, field);
  }
  throw new Error(`A field of kind ${field.kind} has no schema here.`);
}
