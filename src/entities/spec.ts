/**
 * An entity is described once, as data. Routes, valibot schemas, the OData allow-list, the SQL table
 * and the OpenAPI description are all derived from this description.
 */
import type { FieldError } from '../http/errors';
import type { ApiContext } from '../http/context';

export type FieldKind = 'string' | 'int' | 'bool' | 'decimal' | 'datetime' | 'guid' | 'enum';

export interface EnumSpec {
  /** Name of the enum as the interface calls it (ExchangeRateType, ...). */
  readonly name: string;
  /** Member name -> wire number. */
  readonly members: Readonly<Record<string, number>>;
}

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
}

/** How a single path segment after the prefix finds a record. */
export type SegmentLookup =
  /** `/{id}` vs `/{key}` of the same shape: a GUID is tried as an id first, then as the key. */
  | 'idOrKey'
  /** An integer is the key (number), a GUID is the id, anything else is 400. */
  | 'intKeyOrId';

export type Values = Record<string, unknown>;

export interface EntityHooks {
  /** Extra validation of a complete create body (after field validation); returns every problem. */
  validateCreate?(ctx: ApiContext, values: Values): Promise<FieldError[]>;
}

export interface EntitySpec {
  /** Resource name used in URLs of reference data and custom attribute keys (`emailTemplates`). */
  readonly name: string;
  /** Human name (`Email template`). */
  readonly title: string;
  /** Schema name for OpenAPI (`EmailTemplateResource`). */
  readonly resourceName: string;
  /** Path under `/api/{tenantKey}/{orgKey}` (`/operations/emailTemplates`). */
  readonly basePath: string;
  readonly table: string;
  /** API field name -> description; the order is the order of reads. */
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Natural key: one or more field names, in path order. */
  readonly key: readonly string[];
  /** Path parameter names of the key, when SPEC names them differently from the fields (`companyKey` for `company`). */
  readonly keyParams?: readonly string[];
  /** Single-segment lookup rule for `/{id}` paths (single-field keys only). */
  readonly segmentLookup?: SegmentLookup;
  readonly customAttributes: boolean;
  /** Extra indexed columns (each list is one index after tenant/org). */
  readonly indexes?: readonly (readonly string[])[];
  readonly hooks?: EntityHooks;
}

export const AUDIT_FIELDS = ['isActive', 'createdOn', 'createdBy', 'modifiedOn', 'modifiedBy', 'version'] as const;
