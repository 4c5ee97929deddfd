/** Required values: present and not null, then valid. The OpenAPI document shows the schema they check. */
import * as v from 'valibot';
import { issueMessage } from '../messages/catalogue';

type AnySchema = v.GenericSchema<unknown, unknown>;

const requiredBases = new WeakMap<object, AnySchema>();

/** `schema` for a value that must be given: absent or null fails with "`name` is required". */
export function requireValue(name: string, schema: AnySchema): AnySchema {
  const required = v.pipe(
    v.unknown(),
    v.check((value) => value !== undefined && value !== null, issueMessage('required', { field: name })),
    schema,
  );
  requiredBases.set(required, schema);
  return required;
}

/** The schema a `requireValue` schema checks; undefined for any other value. */
export function findRequiredBase(schema: unknown): AnySchema | undefined {
  return typeof schema === 'object' && schema !== null ? requiredBases.get(schema) : undefined;
}
