/** OpenAPI documentation of the reference data routes, derived from the kind descriptions (kinds.ts, validate.ts). */
import * as v from 'valibot';
import type { OperationDoc, ParameterDoc } from '../../http/route';
import { REFERENCE_KINDS } from './kinds';
import type { ReferenceFieldSpec, ReferenceKindSpec } from './spec';
import { buildReferenceSchema, MAX_REFERENCE_RECORDS } from './validate';

type AnySchema = v.GenericSchema<unknown, unknown>;
type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

function nameOf(spec: ReferenceKindSpec): string {
  return `${spec.name.charAt(0).toUpperCase()}${spec.name.slice(1)}ReferenceRecord`;
}

function buildAnswerValue(field: ReferenceFieldSpec): AnySchema {
  switch (field.kind) {
    case 'int':
      return v.pipe(v.number(), v.integer());
    case 'bool':
      return v.boolean();
    case 'stringList':
      return v.array(v.string());
    case 'choice':
      return v.picklist(field.choices ?? []);
    case 'string':
      return v.string();
  }
  throw new Error(`A field of kind ${field.kind} has no schema here.`);
}

function answerOf(field: ReferenceFieldSpec): AnySchema {
  const base = buildAnswerValue(field);
  return field.required || field.kind === 'bool' || field.kind === 'stringList' ? base : v.nullable(base);
}

function recordOf(spec: ReferenceKindSpec): AnySchema {
  const entries: Record<string, AnySchema> = {
    id: v.string(),
    key: v.pipe(v.string(), v.description(spec.keyDescription ?? 'Natural key')),
  };
  for (const [name, field] of Object.entries(spec.fields)) entries[name] = answerOf(field);
  return v.pipe(v.strictObject(entries), v.description(`A ${spec.name} record`));
}

const records = REFERENCE_KINDS.map((spec) => [nameOf(spec), recordOf(spec)] as const);
const inputs = REFERENCE_KINDS.filter((spec) => spec.storage !== 'standard').map(
  (spec) => [`${nameOf(spec)}Input`, buildReferenceSchema(spec)] as const,
);

const schemas: Record<string, AnySchema> = Object.fromEntries([...records, ...inputs]);

const KIND: ParameterDoc = {
  name: 'kind',
  in: 'path',
  description: `Reference data kind (cultures and currencies are standard read-only lists)`,
  schema: { json: { type: 'string', enum: REFERENCE_KINDS.map((spec) => spec.name) } },
};

const UNKNOWN_KIND = { description: 'Unknown kind, or (DELETE) no record with that key' };
const READ_ONLY = { description: 'The kind is a standard read-only list (Allow: GET)' };

export const referenceListDoc = {
  schemas,
  parameters: [KIND],
  responses: {
    200: {
      description: 'Every record of the kind, by key',
      schema: v.strictObject({ items: v.array(v.union(records.map(([, schema]) => schema))) }),
    },
    404: UNKNOWN_KIND,
  },
} satisfies Parts;

export const referenceUpsertDoc = {
  schemas,
  parameters: [KIND],
  requestBody: {
    description: `At most ${MAX_REFERENCE_RECORDS} records of the kind, upserted by key, all-or-nothing`,
    schema: v.pipe(v.array(v.union(inputs.map(([, schema]) => schema))), v.maxLength(MAX_REFERENCE_RECORDS)),
  },
  responses: {
    200: {
      description: 'How many records were written',
      schema: v.strictObject({ upserted: v.pipe(v.number(), v.integer()) }),
    },
    404: UNKNOWN_KIND,
    405: READ_ONLY,
  },
} satisfies Parts;

export const referenceDeleteDoc = {
  parameters: [KIND, { name: 'key', in: 'path', description: 'Key of the record', schema: { json: { type: 'string' } } }],
  responses: {
    204: { description: 'Deleted' },
    400: { description: 'Not valid, or the record is still used (code ReferenceInUse, naming the users)' },
    404: UNKNOWN_KIND,
    405: READ_ONLY,
  },
} satisfies Parts;
