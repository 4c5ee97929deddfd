/**
 * An entity is described once, as data. Routes, valibot schemas, the OData allow-list, the SQL table (with its
 * column and row types) and the OpenAPI description are all derived from this description.
 */
import type { ApiContext } from '../http/context';
import type { FieldError } from '../errors/api-error';
import type { Message } from '../messages/catalogue';
import type { EnumSpec } from '../validation/enums';
import type { FieldKind } from '../validation/values';

export interface FieldSpec {
  readonly kind: FieldKind;
  /** SQL column name (snake_case). */
  readonly column: string;
  readonly description: string;
  /** Must be present on create. */
  readonly required?: boolean;
  /** Has its own `PUT /{key}/{field}` operation. */
  readonly updatable?: boolean;
  readonly maxLength?: number;
  readonly enum?: EnumSpec;
  /** The value is the natural key of a reference record of this kind. */
  readonly reference?: string;
  /** Excluded from `$filter`/`$orderby` (long text). */
  readonly notQueryable?: boolean;
  /**
   * Text field in the entity's trigram index (`<table>_text`, migration 0005): `contains`/`startswith`/`endswith` with a
   * literal of 3 or more characters read the index instead of every row.
   */
  readonly textSearch?: boolean;
  /**
   * A service's rule on a string value (email templates: the placeholder syntax), checked with the field's own
   * validation on create and attribute PUT, so a refusal names the field beside every other bad one.
   */
  readonly checkText?: (field: string, value: string) => Message | undefined;
}

export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

/** How a single path segment after the prefix finds a record. */
export type SegmentLookup =
  /** `/{id}` vs `/{key}` of the same shape: a GUID is tried as an id first, then as the key. */
  | 'idOrKey'
  /** An integer is the key (number), a GUID is the id, anything else is 400. */
  | 'intKeyOrId';

/** Field values of a record, by field name. */
export type Values = Record<string, unknown>;

export interface EntityHooks {
  /** Extra validation of a complete create body (after field validation); returns every problem. */
  validateCreate?(ctx: ApiContext, values: Values): Promise<FieldError[]>;
  /**
   * True when the database enforces what `validateCreate` checks (a trigger refuses the create's batch, see
   * src/db/rules.ts): the create then does not read first (it stays one round trip) and `validateCreate` only runs to
   * word a refused batch. Without it, `validateCreate` runs before every insert.
   */
  readonly createRuleInDatabase?: boolean;
}

/** The columns every entity row has besides its fields (an index may name them too). */
export type CommonColumnName = 'id' | 'isActive' | 'version' | 'createdOn' | 'createdBy' | 'modifiedOn' | 'modifiedBy';

export interface EntitySpec {
  /** Resource name used in URLs of reference data and custom attribute keys (`emailTemplates`). */
  readonly name: string;
  /** Human name (`Email template`). */
  readonly title: string;
  /** Schema name for OpenAPI (`EmailTemplate`: `EmailTemplateResource`, ...). */
  readonly resourceName: string;
  /** Path under `/api/{tenantKey}/{orgKey}` (`/operations/emailTemplates`). */
  readonly basePath: string;
  readonly table: string;
  /** API field name -> description; the order is the order of reads. */
  readonly fields: FieldSpecs;
  /** Natural key: one or more field names, in path order. */
  readonly key: readonly string[];
  /** Path parameter names of the key, when they differ from the field names (`companyKey` for `company`). */
  readonly keyParams?: readonly string[];
  /** Single-segment lookup rule for `/{id}` paths (single-field keys only). */
  readonly segmentLookup?: SegmentLookup;
  /** Records take `custom_<name>` values (stored as JSON in the `custom_attributes` column every entity table has). */
  readonly customAttributes: boolean;
  /** Extra indexed columns (each list is one index after tenant/org). */
  readonly indexes?: readonly (readonly string[])[];
  readonly hooks?: EntityHooks;
}

/** Names in `key` and `indexes` must be the entity's own fields (or, in indexes, its common columns). */
interface CheckedNames<S extends EntitySpec> {
  readonly key: readonly (keyof S['fields'] & string)[];
  readonly indexes?: readonly (readonly ((keyof S['fields'] & string) | CommonColumnName)[])[];
}

/** Declares an entity: the spec keeps its literal types, so its table, rows and key names are typed from it. */
export function defineEntitySpec<const S extends EntitySpec>(spec: S & CheckedNames<S>): S {
  return spec;
}

/** The field of `spec` named `name`, if it has one (for names that come from requests). */
export function findField(spec: EntitySpec, name: string): FieldSpec | undefined {
  return spec.fields[name];
}
