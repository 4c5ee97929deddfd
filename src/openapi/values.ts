/** valibot schemas of values as the API writes them (answers), for the OpenAPI document. */
import * as v from 'valibot';
import type { FieldSpec } from '../entities/spec';
import { ENUM_METADATA } from '../entities/values';
import { ERROR_STATUS } from '../http/errors';
import type { ErrorCode } from '../http/errors';

type AnySchema = v.GenericSchema<unknown, unknown>;

export const GUID = v.pipe(v.string(), v.uuid(), v.description('A lowercase GUID made by the server')) as AnySchema;
export const DATE_TIME = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 in UTC (`Z`)')) as AnySchema;
export const INTEGER = v.pipe(v.number(), v.integer()) as AnySchema;

/** `custom_<name>` properties (CONTRACT 6) of a resource or a create body. */
export const CUSTOM_PROPERTIES = { '^custom_[A-Za-z][A-Za-z0-9_]{0,63}$': { description: 'A custom attribute value (custom_<name>)' } };

/** The value of a field as reads answer it (optional fields may be null). */
export function buildAnswerSchema(field: FieldSpec): AnySchema {
  let schema: AnySchema;
  switch (field.kind) {
    case 'int':
      schema = INTEGER;
      break;
    case 'bool':
      schema = v.boolean() as AnySchema;
      break;
    case 'decimal':
      schema = v.pipe(v.number(), v.description('A decimal number, exact to the digits stored')) as AnySchema;
      break;
    case 'datetime':
      schema = DATE_TIME;
      break;
    case 'guid':
      schema = v.pipe(v.string(), v.uuid()) as AnySchema;
      break;
    case 'enum':
      schema = v.pipe(v.number(), v.integer(), v.metadata({ [ENUM_METADATA]: field.enum })) as AnySchema;
      break;
    default:
      schema = v.pipe(v.string(), v.description(field.description)) as AnySchema;
  }
  return field.required ? schema : (v.nullable(schema) as AnySchema);
}

/** A problem+json body (CONTRACT 2; src/http/errors.ts). */
export const PROBLEM = v.strictObject({
  type: v.pipe(v.string(), v.url()),
  title: v.string(),
  status: INTEGER,
  detail: v.string(),
  code: v.pipe(
    v.picklist(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    v.description('Stable machine-readable name of the error'),
  ),
  errors: v.pipe(v.array(v.strictObject({ path: v.string(), message: v.string() })), v.description('Every invalid field')),
  instance: v.string(),
  requestId: v.string(),
}) as AnySchema;
