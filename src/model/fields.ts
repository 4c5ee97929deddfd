/**
 * The fields of a resource: what each holds (its kind), where it is stored (its column) and the rules on it. Every
 * description of the API (entities, reference kinds, rate lines, KPI measurements) is made of these; the stored value
 * of each kind is a valibot schema, so a row's type is the inferred output of its resource's row schema (types.ts).
 */
import * as v from 'valibot';
import type { RuleName } from '../db/rules';
import type { Message } from '../messages/catalogue';
import type { EnumSpec } from '../validation/enums';
import type { FieldKind } from '../validation/values';

export type { FieldKind };

/** The referenced record's field `field` must equal this record's field of the same name; the database refuses otherwise. */
interface ReferenceMatch {
  readonly field: string;
  readonly rule: RuleName;
}

export interface Field {
  readonly kind: FieldKind;
  /** SQL column name (snake_case). */
  readonly column: string;
  /** Must be present on create; stored NOT NULL. */
  readonly required?: boolean;
  /** Absent means false (`bool`) or empty (`stringList`): stored NOT NULL with that default. */
  readonly defaulted?: boolean;
  readonly maxLength?: number;
  /** The value (or each list item) is the natural key of a record of this reference kind. */
  readonly reference?: string;
  readonly description?: string;
  /** Has its own `PUT /{key}/{field}` operation. */
  readonly updatable?: boolean;
  readonly enum?: EnumSpec;
  /** For `choice`: the allowed values (matched case-insensitively, stored as written here). */
  readonly choices?: readonly string[];
  readonly referenceMatch?: ReferenceMatch;
  /** Excluded from `$filter`/`$orderby` (long text). */
  readonly notQueryable?: boolean;
  /** In the resource's trigram index: `contains`/`startswith`/`endswith` read the index. */
  readonly textSearch?: boolean;
  /** A service's rule on a string value, checked with the field's own validation on create and update. */
  readonly checkText?: (field: string, value: string) => Message | undefined;
}

export type Fields = Readonly<Record<string, Field>>;

/** The stored value of each kind, as the API answers it (decimals and date-times are exact text). */
const VALUE_SCHEMAS = {
  string: v.string(),
  int: v.number(),
  bool: v.boolean(),
  decimal: v.string(),
  datetime: v.string(),
  guid: v.string(),
  enum: v.number(),
  choice: v.string(),
  stringList: v.array(v.string()),
} as const satisfies Record<FieldKind, v.GenericSchema>;

/** The schema of a field's stored value, without nullability. */
type ValueSchemaOf<F extends Field> = F extends { readonly kind: 'choice'; readonly choices: infer C extends readonly string[] }
  ? v.PicklistSchema<C, undefined>
  : (typeof VALUE_SCHEMAS)[F['kind']];

/** Whether a stored value can be null: a field that is neither required nor defaulted. */
type IsNullable<F extends Field> = F extends { readonly required: true } ? false : F extends { readonly defaulted: true } ? false : true;

/** The schema of a field's stored value as a row holds it. */
export type StoredSchemaOf<F extends Field> = IsNullable<F> extends true ? v.NullableSchema<ValueSchemaOf<F>, undefined> : ValueSchemaOf<F>;

/** The valibot schema of a field's stored value (null allowed unless required or defaulted). */
export function buildStoredSchema<F extends Field>(field: F): StoredSchemaOf<F> {
  const base: v.GenericSchema = field.kind === 'choice' ? v.picklist(field.choices ?? []) : VALUE_SCHEMAS[field.kind];
  const schema = field.required || field.defaulted ? base : v.nullable(base);
  // Built by the same rule StoredSchemaOf spells out, field kind by field kind.
  return schema as StoredSchemaOf<F>;
}

/** A stored value of any field (what generic code over any resource handles). */
export type FieldValue = string | number | boolean | null | readonly string[];

/** A field that holds keys of a reference kind. */
export interface ReferenceField {
  readonly name: string;
  readonly column: string;
  readonly kind: string;
  readonly list: boolean;
}

/** The fields that hold keys of a reference kind, in field order. */
export function listReferenceFields(fields: Fields): ReferenceField[] {
  return Object.entries(fields).flatMap(([name, field]) =>
    field.reference === undefined ? [] : [{ name, column: field.column, kind: field.reference, list: field.kind === 'stringList' }],
  );
}
