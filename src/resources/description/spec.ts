/**
 * What every description shares, entities (src/resources/entities/spec.ts) and reference kinds (src/resources/reference/spec.ts) alike:
 * a table of fields, each stored in a column, some holding keys of a reference kind. The two families differ by
 * options on top (an entity's routes, key, hooks and members; a kind's standard list, canonical keys and record
 * check); what reads descriptions across both (the trigger generator, the reference users) reads this.
 */

export interface ResourceFieldSpec {
  /** The value's kind; `stringList` values are JSON arrays. */
  readonly kind: string;
  /** SQL column name (snake_case). */
  readonly column: string;
  /** Must be present on create. */
  readonly required?: boolean;
  readonly maxLength?: number;
  /** The value (or each list item) is the natural key of a reference record of this kind. */
  readonly reference?: string;
}

export interface ResourceSpec<F extends ResourceFieldSpec = ResourceFieldSpec> {
  readonly table: string;
  /** Field name -> description; the order is the order of reads. */
  readonly fields: Readonly<Record<string, F>>;
}

/** A field that holds keys of a reference kind. */
export interface ReferenceField {
  readonly name: string;
  readonly column: string;
  /** The reference kind. */
  readonly kind: string;
  /** The column holds a JSON array of keys. */
  readonly list: boolean;
}

/** The fields of `spec` that hold keys of a reference kind, in field order. */
export function listReferenceFields(spec: ResourceSpec): ReferenceField[] {
  return Object.entries(spec.fields).flatMap(([name, field]) =>
    field.reference === undefined ? [] : [{ name, column: field.column, kind: field.reference, list: field.kind === 'stringList' }],
  );
}
