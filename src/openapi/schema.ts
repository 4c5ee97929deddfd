/**
 * valibot -> JSON Schema (draft 2020-12) with @valibot/to-json-schema, for the OpenAPI document. Named schemas
 * become components (referenced wherever the same valibot object appears); enums become named components with
 * their member names; input-only checks and transformations are left out (typeMode 'input').
 */
import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { ConversionConfig, JsonSchema, OverrideActionContext, OverrideSchemaContext } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import type { EnumSpec } from '../entities/spec';
import { ENUM_METADATA } from '../entities/values';
import type { DocSchema } from '../http/route';

export type JsonObject = Record<string, unknown>;

export const COMPONENTS_PATH = '#/components/schemas/';

export function refTo(name: string): JsonObject {
  return { $ref: `${COMPONENTS_PATH}${name}` };
}

function isEnumSpec(value: unknown): value is EnumSpec {
  return typeof value === 'object' && value !== null && 'name' in value && 'members' in value;
}

/** `HTML` -> `[Hh][Tt][Mm][Ll]` (JSON Schema patterns have no case-insensitive flag). */
function caseInsensitive(text: string): string {
  return [...text]
    .map((char) =>
      char.toLowerCase() !== char.toUpperCase()
        ? `[${char.toUpperCase()}${char.toLowerCase()}]`
        : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
}

/** The enum's component: the numbers written on the wire, with their names. */
export function describeEnumComponent(spec: EnumSpec): JsonObject {
  const members = Object.entries(spec.members);
  return {
    title: spec.name,
    description: `${spec.name}: ${members.map(([name, value]) => `${value} = ${name}`).join(', ')}. Answers carry the number.`,
    type: 'integer',
    enum: members.map(([, value]) => value),
    'x-enum-varnames': members.map(([name]) => name),
  };
}

/** Request side of an enum: the number, or the member name in any case. */
function describeEnumInput(spec: EnumSpec): JsonObject {
  const names = Object.keys(spec.members);
  const numbers = Object.values(spec.members).map(String);
  return {
    anyOf: [
      refTo(spec.name),
      {
        type: 'string',
        description: `The member name (${names.join(', ')}), case-insensitively, or the number as a string`,
        pattern: `^\\s*(?:${[...numbers, ...names.map(caseInsensitive)].join('|')})\\s*$`,
      },
    ],
  };
}

function isRequiredWrapper(entry: unknown): GenericSchema<unknown, unknown> | undefined {
  if (typeof entry !== 'object' || entry === null || !('pipe' in entry)) return undefined;
  const pipe = (entry as { pipe: readonly { kind: string; type: string }[] }).pipe;
  if (pipe[0]?.kind !== 'schema' || pipe[0].type !== 'unknown') return undefined;
  return pipe.slice(1).find((item) => item.kind === 'schema') as GenericSchema<unknown, unknown> | undefined;
}

export interface SchemaConverter {
  convert(schema: DocSchema): JsonObject;
  /** Named schemas and the enums met so far. */
  readComponents(): Record<string, JsonObject>;
}

/** One converter per document: `named` are the components (name -> valibot schema). */
export function buildSchemaConverter(named: Readonly<Record<string, GenericSchema<unknown, unknown>>>): SchemaConverter {
  const enums = new Map<string, EnumSpec>();
  const definitions = { ...named };
  const inline = (schema: GenericSchema<unknown, unknown>, withDefinitions = true): JsonObject => {
    const json = toJsonSchema(schema, withDefinitions ? { ...config, definitions } : config) as JsonObject;
    delete json.$schema;
    delete json.$defs;
    return json;
  };
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    typeMode: 'input',
    ignoreActions: ['check'],
    overrideRef: ({ referenceId }) => `${COMPONENTS_PATH}${referenceId}`,
    overrideAction: ({ valibotAction, jsonSchema }: OverrideActionContext) => {
      const spec =
        valibotAction.type === 'metadata'
          ? (valibotAction as unknown as { metadata: Record<string, unknown> }).metadata[ENUM_METADATA]
          : undefined;
      if (!isEnumSpec(spec)) return undefined;
      enums.set(spec.name, spec);
      // A schema that takes strings too is a request's (number or name); otherwise it is an answer's number.
      return (jsonSchema.anyOf ? describeEnumInput(spec) : refTo(spec.name)) as JsonSchema;
    },
    // Required fields are `pipe(unknown, check(present), base)`: the document shows `base` (the object lists them as required).
    overrideSchema: ({ valibotSchema, jsonSchema }: OverrideSchemaContext) => {
      if (!('entries' in valibotSchema) || !jsonSchema.properties) return undefined;
      const entries = (valibotSchema as { entries: Record<string, unknown> }).entries;
      const properties = { ...jsonSchema.properties };
      let changed = false;
      for (const [name, entry] of Object.entries(entries)) {
        const base = isRequiredWrapper(entry);
        if (base) {
          // Field schemas are never named: converting without the definitions keeps this from recursing.
          properties[name] = inline(base, false) as JsonSchema;
          changed = true;
        }
      }
      return changed ? { ...jsonSchema, properties } : undefined;
    },
  };
  let components: Record<string, JsonObject> | undefined;
  return {
    convert: (schema) => ('json' in schema && !('kind' in schema) ? { ...schema.json } : inline(schema as GenericSchema<unknown, unknown>)),
    readComponents: () => {
      components ??= toJsonSchemaDefs(definitions, config) as Record<string, JsonObject>;
      const all: Record<string, JsonObject> = { ...components };
      for (const [name, spec] of enums) all[name] = describeEnumComponent(spec);
      return all;
    },
  };
}
