/**
 * An entity is described once, as data. Routes, valibot schemas, the OData allow-list, the SQL table (with its
 * column and row types) and the OpenAPI description are all derived from this description.
 */
import type { RuleName } from '../db/rules';
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
  /**
   * The referenced record's field `field` must equal this record's field of the same name (a route's brand model is a
   * model of the route's brand); the database refuses a write that breaks it with `rule:<rule>`.
   */
  readonly referenceMatch?: ReferenceMatch;
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

/** See `FieldSpec.referenceMatch`. */
export interface ReferenceMatch {
  /** Field name on both sides (`brand`). */
  readonly field: string;
  readonly rule: RuleName;
}

/**
 * A table of the entity's members: rows (owner id, scope, member key) that hold keys of a reference kind. Members are
 * added and removed, never updated.
 */
export interface MemberTableSpec {
  readonly table: string;
  /** The column of the member's key. */
  readonly column: string;
  /** The reference kind of the members. */
  readonly reference: string;
  /** A field the member's reference record must share with the owner (its `company`): see `MembersSpec.rules`. */
  readonly sameField?: string;
}

/** The entity's member tables and the rules the database holds on them. */
export interface MembersSpec {
  /** The member tables' column of the owner's id. */
  readonly ownerColumn: string;
  readonly tables: readonly MemberTableSpec[];
  /** `memberMismatch`: a member added whose `sameField` differs from the owner's; `ownerChange`: the owner's changes while it has such members. */
  readonly rules: { readonly memberMismatch: RuleName; readonly ownerChange: RuleName };
}

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
  /** Tables of members that belong to each record (routes: locations, equipment items, tools). */
  readonly members?: MembersSpec;
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
