/** The documentation of a record's PATCH (merge) and PUT (replace), derived from the EntitySpec (routes.ts). */
import * as v from 'valibot';
import type { ParameterDoc, RouteDoc } from '../../http/route';
import { CUSTOM_ATTRIBUTES_OBJECT } from './custom-attributes';
import { buildAnswerEntries, buildEntitySchemas, withCustom } from './doc-schemas';
import type { EntityDocOptions } from './doc-schemas';
import { describeRecordPath } from './route-docs';
import type { RecordPath } from './route-docs';
import type { EntitySpec } from './spec';
import { buildUpdateSchema, listReadOnlyFields } from './update-body';
import type { UpdateMode } from './update-body';

type AnySchema = v.GenericSchema<unknown, unknown>;
type DocParts = Omit<RouteDoc, 'summary' | 'tags' | 'operationId'>;

const PREFER: ParameterDoc = {
  name: 'Prefer',
  in: 'header',
  description: 'return=minimal: answer 204 with the ETag instead of the record',
  schema: { json: { type: 'string' } },
};

const bodies = { merge: new WeakMap<EntitySpec, AnySchema>(), replace: new WeakMap<EntitySpec, AnySchema>() };

/**
 * The body: the values as the update validates them, custom attribute values, and what a read answers that the request
 * does not change (read-only properties and related lists: accepted when equal to the stored ones).
 */
function buildBody(spec: EntitySpec, options: EntityDocOptions, mode: UpdateMode): AnySchema {
  let body = bodies[mode].get(spec);
  if (!body) {
    const values = buildUpdateSchema(spec, mode).entries;
    const stored = buildAnswerEntries(Object.fromEntries(listReadOnlyFields(spec)));
    const readOnly = Object.fromEntries(
      Object.entries(stored).map(([name, schema]) => [
        name,
        v.optional(v.pipe(schema, v.description('Read-only: as stored, or left out'))),
      ]),
    );
    const related = Object.fromEntries(
      Object.entries(options.answerExtras ?? {}).map(([name, schema]) => [
        name,
        v.optional(v.pipe(schema, v.description('Read-only here: as read, or left out'))),
      ]),
    );
    const custom: Record<string, AnySchema> = spec.customAttributes
      ? { customAttributes: v.optional(v.nullable(CUSTOM_ATTRIBUTES_OBJECT)) }
      : {};
    body = withCustom(v.strictObject({ ...values, ...custom, ...readOnly, ...related }), spec.customAttributes);
    bodies[mode].set(spec, body);
  }
  return body;
}

/** The doc of a PATCH (`merge`) or PUT (`replace`) of a record named by `by`. */
export function describeEntityUpdate(spec: EntitySpec, options: EntityDocOptions, by: RecordPath, mode: UpdateMode) {
  const schemas = buildEntitySchemas(spec, options);
  const title = spec.title.toLowerCase();
  return {
    schemas: { ...schemas.named, [`${spec.resourceName}${mode === 'merge' ? 'Patch' : 'Replace'}`]: buildBody(spec, options, mode) },
    parameters: [...describeRecordPath(spec, by), PREFER],
    requestBody: {
      description:
        mode === 'merge'
          ? `The properties to change (null clears an optional one), custom_<name> values (or a customAttributes object) merged into the ${title}'s`
          : `The whole ${title}: absent optional properties become null, absent isActive true; the custom attribute values replace the stored ones`,
      schema: buildBody(spec, options, mode),
    },
    responses: {
      200: { description: 'The record as updated (as a read answers it)', schema: schemas.resource, headers: ['ETag'] },
      204: { description: 'Updated (Prefer: return=minimal)', headers: ['ETag', 'Preference-Applied'] },
      404: { description: 'The record does not exist' },
    },
    errors: [412],
  } satisfies DocParts;
}
