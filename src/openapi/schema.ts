/**
 * valibot -> JSON Schema (draft 2020-12) with @valibot/to-json-schema, for the OpenAPI document. Named schemas
 * become components (referenced wherever the same valibot object appears); enums become named components with
 * their member names; input-only checks and transformations are left out (typeMode 'input').
 */
import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { ConversionConfig, JsonSchema, OverrideActionContext, OverrideSchemaContext } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import type { DocSchema } from '../http/route';
import { ENUM_METADATA, isEnumSpec } from '../validation/enums';
import type { EnumSpec } from '../validation/enums';
import { findRequiredBase } from '../validation/required';
import { isPlainObject } from '../validation/values';

export type JsonObject = Record<string, unknown>;

const COMPONENTS_PATH = '#/components/schemas/';

export function refTo(name: string): { $ref: string } {
  return { $ref: `${COMPONENTS_PATH}${name}` };
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
function describeEnumComponent(spec: EnumSpec): JsonObject {
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
function describeEnumInput(spec: EnumSpec): JsonSchema {
  const names = Object.keys(spec.members);
  const numbers = Object.values(spec.members).map(String);
  return {
    anyOf: [
      refTo(spec.name),
      {
        type: 'string' as const,
        description: `The member name (${names.join(', ')}), case-insensitively, or the number as a string`,
        pattern: `^\\s*(?:${[...numbers, ...names.map(caseInsensitive)].join('|')})\\s*$`,
      },
    ],
  };
}

export interface SchemaConverter {
  convert(schema: DocSchema): JsonObject;
  /** Named schemas and the enums met so far. */
  buildComponents(): Record<string, JsonObject>;
}

/** One converter per document: `named` are the components (name -> valibot schema). */
export function buildSchemaConverter(named: Readonly<Record<string, GenericSchema<unknown, unknown>>>): SchemaConverter {
  const enums = new Map<string, EnumSpec>();
  const definitions = { ...named };
  const inline = (schema: GenericSchema<unknown, unknown>, withDefinitions = true): JsonSchema => {
    const json = { ...toJsonSchema(schema, withDefinitions ? { ...config, definitions } : config) };
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
      const metadata = 'metadata' in valibotAction ? valibotAction.metadata : undefined;
      const spec = isPlainObject(metadata) ? metadata[ENUM_METADATA] : undefined;
      if (!isEnumSpec(spec)) return undefined;
      enums.set(spec.name, spec);
      // A schema that takes strings too is a request's (number or name); otherwise it is an answer's number.
      return jsonSchema.anyOf ? describeEnumInput(spec) : refTo(spec.name);
    },
    // Required fields are `pipe(unknown, check(present), base)`: the document shows `base` (the object lists them as required).
    overrideSchema: ({ valibotSchema, jsonSchema }: OverrideSchemaContext) => {
      const entries = 'entries' in valibotSchema ? valibotSchema.entries : undefined;
      if (!isPlainObject(entries) || !jsonSchema.properties) return undefined;
      const properties = { ...jsonSchema.properties };
      let changed = false;
      for (const [name, entry] of Object.entries(entries)) {
        const base = findRequiredBase(entry);
        if (base) {
          // Field schemas are never named: converting without the definitions keeps this from recursing.
          properties[name] = inline(base, false);
          changed = true;
        }
      }
      return changed ? { ...jsonSchema, properties } : undefined;
    },
  };
  let components: Record<string, JsonObject> | undefined;
  return {
    convert: (schema) => ('kind' in schema ? { ...inline(schema) } : { ...schema.json }),
    buildComponents: () => {
      components ??= Object.fromEntries(Object.entries(toJsonSchemaDefs(definitions, config)).map(([name, json]) => [name, { ...json }]));
      const all: Record<string, JsonObject> = { ...components };
      for (const [name, spec] of enums) all[name] = describeEnumComponent(spec);
      return all;
    },
  };
}
