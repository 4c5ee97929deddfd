/** Reference data kinds are resources of storage `reference` or `standard` (src/model/resource.ts), described once. */
import type { Field, Fields } from '../../model/fields';
import { defineResource } from '../../model/resource';
import type { ReferenceRecordInput, ReferenceResource } from '../../model/resource';

export type ReferenceFieldSpec = Field;
export type ReferenceFieldSpecs = Fields;

/** A record of a kind as validated from a request: its key and field values. */
export type ReferenceInput = ReferenceRecordInput;

export type ReferenceKindSpec = ReferenceResource;

/** A stored reference record as the API answers it. */
export type ReferenceRecord = { readonly id: string; readonly key: string } & Readonly<Record<string, unknown>>;

/** Declares a kind; the spec keeps its literal types, so its table and rows are typed from it. */
export const defineReferenceKind = defineResource;

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
