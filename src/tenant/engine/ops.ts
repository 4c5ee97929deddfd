/**
 * Writes as data: a service turns a request into operations on described resources (src/model/), and the engine
 * (this folder) derives everything else from an operation: its statements, its outbox event and audit stamp, its
 * after-image (what an atomic group's later reads see), its inverse (what an import's revert applies), and which
 * operation a refused batch belongs to. No service writes SQL for tenant data.
 */
import type { FieldValue } from '../../model/fields';
import type { EntityResource, LineResource, ReferenceResource, RowsResource } from '../../model/resource';
import type { CustomDefinitionListing } from './custom-definitions';

/** How an operation names one record: by id, by natural key (values in key order), or a GUID segment tried as both. */
export type RecordLookup =
  | { readonly by: 'id'; readonly id: string }
  | { readonly by: 'key'; readonly values: readonly FieldValue[] }
  | { readonly by: 'idOrKey'; readonly id: string; readonly key: string };

/** Field values by field name (what an operation writes). */
export type Values = { readonly [field: string]: FieldValue | undefined };

/** How a refusal of the database's rules (src/db/rules.ts) is worded: the request's checks run again, the fields named. */
export interface RuleWording {
  /** The checks of the request, run again after the database refused (they throw the worded 400). */
  readonly recheck?: () => Promise<unknown>;
  /** The request fields the rule's own 400 names when the checks pass. */
  readonly paths?: readonly string[];
}

/** Creates a record: its id and field values; the audit fields, scope and version come from the commit. */
export interface InsertOp {
  readonly kind: 'insert';
  readonly resource: EntityResource;
  readonly id: string;
  readonly values: Values;
  /** Custom attribute values (entities that take them). */
  readonly custom?: Readonly<Record<string, unknown>>;
  /** Member keys by member list property (written in the same batch). */
  readonly members?: Readonly<Record<string, readonly string[]>>;
  /** The insert happens only while the stored custom attribute definitions are exactly these (null: none). */
  readonly definitions?: CustomDefinitionListing | null;
  readonly rules?: RuleWording;
}

/** Updates fields of one record, at `ifVersion` when given; a change that changes nothing writes nothing. */
export interface UpdateOp {
  readonly kind: 'update';
  readonly resource: EntityResource;
  readonly target: RecordLookup;
  readonly set: Values;
  /** Custom attribute values merged into the stored ones (the others are kept, whoever wrote them). */
  readonly merge?: Readonly<Record<string, unknown>>;
  readonly ifVersion?: number;
  readonly rules?: RuleWording;
}

/** Deletes one record (its members and lines with it), at `ifVersion` when given. */
export interface DeleteOp {
  readonly kind: 'delete';
  readonly resource: EntityResource;
  readonly target: RecordLookup;
  readonly ifVersion?: number;
}

/** Upserts reference records by key (all-or-nothing); each new key gets a new id. */
export interface UpsertOp {
  readonly kind: 'upsert';
  readonly resource: ReferenceResource;
  readonly records: readonly ({ readonly key: string } & Values)[];
  readonly rules?: RuleWording;
}

/** Deletes one reference record by key. */
export interface RemoveOp {
  readonly kind: 'remove';
  readonly resource: ReferenceResource;
  readonly key: string;
  readonly rules?: RuleWording;
}

/** Adds (`link`) or removes (`unlink`) members of an entity's member list, all-or-nothing. */
export interface LinkOp {
  readonly kind: 'link' | 'unlink';
  readonly resource: EntityResource;
  /** The owner by its key fields (some of them: the owner must then be the only one matching). */
  readonly owner: Values;
  readonly member: string;
  /** The members named by their reference keys or their reference records' ids. */
  readonly by: 'key' | 'id';
  readonly values: readonly string[];
  /** Custom attribute values of the owner merged in the same write. */
  readonly merge?: Readonly<Record<string, unknown>>;
}

/** A line of a parent record: inserted, updated or deleted; every change bumps the parent (its version, its event). */
export interface LineOp {
  readonly kind: 'addLine' | 'changeLine' | 'removeLine';
  readonly resource: LineResource;
  /** The parent's id, and its version when the request sent `If-Match`. */
  readonly parent: { readonly id: string; readonly ifVersion?: number };
  readonly lineId: string;
  readonly values?: Values;
  readonly merge?: Readonly<Record<string, unknown>>;
}

/** Inserts plain rows (KPI measurements) in bulk, all-or-nothing; with `firstId` the rows take ids from it on. */
export interface InsertRowsOp {
  readonly kind: 'insertRows';
  readonly resource: RowsResource;
  readonly rows: readonly Values[];
  readonly firstId?: number;
  readonly rules?: RuleWording;
}

export type Op = InsertOp | UpdateOp | DeleteOp | UpsertOp | RemoveOp | LinkOp | LineOp | InsertRowsOp;
