/** Reference data kinds, described once: fields, table, references (resource descriptions with the kinds' options). */
import type { FieldError } from '../../errors/api-error';
import type { ResourceFieldSpec, ResourceSpec } from '../description/spec';

export type ReferenceFieldKind = 'string' | 'int' | 'bool' | 'stringList' | 'choice';

export interface ReferenceFieldSpec extends ResourceFieldSpec {
  readonly kind: ReferenceFieldKind;
  /** For `choice`: the allowed values (matched case-insensitively, stored as written here). */
  readonly choices?: readonly string[];
}

export type ReferenceFieldSpecs = Readonly<Record<string, ReferenceFieldSpec>>;

/** A record of a kind as validated from a request: its key and field values. */
export type ReferenceInput = { readonly key: string } & Readonly<Record<string, unknown>>;

export interface ReferenceKindSpec extends ResourceSpec<ReferenceFieldSpec> {
  /** URL segment and name (`companies`). */
  readonly kind: string;
  /** Standard lists (cultures, currencies) are read-only, shipped with the migrations and cached in memory. */
  readonly standard: boolean;
  readonly fields: ReferenceFieldSpecs;
  /** Description of the key (`KPI code`). */
  readonly keyDescription?: string;
  /**
   * Keys of the kind compare case-insensitively: any input spelling of a key becomes this canonical one before it
   * is looked up, stored or answered (cultures: `pt-PT`, currencies: `EUR`). Without it, keys are exact.
   */
  readonly canonicalKey?: (key: string) => string;
  /** A rule across fields of one record; returns the problem, if any. */
  readonly check?: (record: ReferenceInput) => FieldError | undefined;
}

/** A stored reference record as the API answers it. */
export type ReferenceRecord = { readonly id: string; readonly key: string } & Readonly<Record<string, unknown>>;

/** Declares a kind; the spec keeps its literal types, so its table and rows are typed from it. */
export function defineReferenceKind<const S extends ReferenceKindSpec>(spec: S): S {
  return spec;
}

/**
 * A table outside the descriptions whose columns hold keys of reference kinds (a service's own table): the database
 * refuses a row naming a key that does not exist, and the delete of a key a row still names. The columns are part of
 * the table's primary key: rows are inserted and deleted, never re-keyed.
 */
export interface KeyHolderSpec {
  readonly table: string;
  /** Column -> reference kind, in check order. */
  readonly references: Readonly<Record<string, string>>;
}
