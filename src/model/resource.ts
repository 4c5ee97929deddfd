/**
 * One description machinery for every resource of the API. A resource is described once, as data: its table, its
 * fields, its natural key, and what its storage gives it. Everything else (the drizzle table and row types, the
 * valibot schemas, the routes, the OData allow-list and CSDL, the OpenAPI document, the generated triggers, the SQL of
 * its writes, its events, after-images and inverses) is derived from the description.
 *
 * The storages:
 * - `entity`: a record with an id (GUID), its fields, custom attribute values, the audit fields (`isActive`, created
 *   and modified stamps, `version`) and a unique natural key per tenant/org; members (route locations, ...) and lines
 *   (rate lines) hang off it. Has CRUD routes of its own.
 * - `reference`: a tenant/org's reference record: an id, a unique `key`, its fields. Bulk upsert by key, delete by key.
 * - `standard`: a read-only standard list shared by every tenant/org (cultures, currencies).
 * - `line`: a child record of an entity (rate lines): an id, its parent's id, an order, its fields, custom attribute
 *   values and stamps; every change bumps its parent's version and is its parent's `updated` event.
 * - `rows`: plain rows with an integer id and no audit (KPI measurements): inserted in bulk, deleted by id.
 */
import type { Message } from '../messages/catalogue';
import type { RuleName } from '../db/rules';
import type { Fields } from './fields';

/** How a single path segment after the prefix finds a record (single-field keys only). */
type SegmentLookup =
  /** `/{id}` vs `/{key}` of the same shape: a GUID is tried as an id first, then as the key. */
  | 'idOrKey'
  /** An integer is the key, a GUID is the id, anything else is 400. */
  | 'intKeyOrId';

/** A table of an entity's members: rows (owner id, scope, member key) holding keys of a reference kind. */
export interface MemberList {
  /** The member property of the owner's answers (`locations`). */
  readonly property: string;
  readonly table: string;
  /** The column of the member's key. */
  readonly column: string;
  /** The reference kind of the members. */
  readonly reference: string;
  /** A field the member's reference record must share with the owner (its `company`). */
  readonly sameField?: string;
}

/** An entity's member lists and the rules the database holds on them. */
export interface Members {
  /** The member tables' column of the owner's id. */
  readonly ownerColumn: string;
  readonly lists: readonly MemberList[];
  /** `memberMismatch`: a member whose `sameField` differs from the owner's; `ownerChange`: the owner's changes while it has such members. */
  readonly rules: { readonly memberMismatch: RuleName; readonly ownerChange: RuleName };
}

/** The fields every description has. */
interface ResourceBase<F extends Fields = Fields> {
  /** The resource's name: URL segment of reference kinds, custom attribute keys' entity, OData entity set. */
  readonly name: string;
  /** Human name (`Email template`). */
  readonly title: string;
  readonly table: string;
  /** Field name -> description; the order is the order of reads and answers. */
  readonly fields: F;
  /** Natural key: field names, in path order (reference kinds: `key`). */
  readonly key: readonly string[];
}

/** An entity: CRUD routes, audit fields, custom attributes, members. */
export interface EntityResource<F extends Fields = Fields> extends ResourceBase<F> {
  readonly storage: 'entity';
  /** Schema name for OpenAPI and OData (`EmailTemplate`). */
  readonly resourceName: string;
  /** Path under `/api/{tenantKey}/{orgKey}` (`/operations/emailTemplates`). */
  readonly basePath: string;
  /** Path parameter names of the key, when they differ from the field names (`companyKey` for `company`). */
  readonly keyParams?: readonly string[];
  readonly segmentLookup?: SegmentLookup;
  /** Records take `custom_<name>` values (stored as JSON in `custom_attributes`). */
  readonly customAttributes: boolean;
  readonly members?: Members;
  /** Extra indexed columns (each list is one index after tenant/org). */
  readonly indexes?: readonly (readonly string[])[];
}

/** A reference kind (tenant records, or a standard list). */
export interface ReferenceResource<F extends Fields = Fields> extends ResourceBase<F> {
  readonly storage: 'reference' | 'standard';
  /** Description of the key (`KPI code`). */
  readonly keyDescription?: string;
  /** Keys compare case-insensitively: any spelling becomes this canonical one (cultures, currencies). */
  readonly canonicalKey?: (key: string) => string;
  /** A rule across fields of one record; answers the problem, if any. */
  readonly check?: (record: ReferenceRecordInput) => { readonly path: string; readonly message: Message } | undefined;
}

/** A reference record as validated: its key and field values. */
export type ReferenceRecordInput = { readonly key: string } & { readonly [field: string]: unknown };

/** A child record of an entity (rate lines). */
export interface LineResource<F extends Fields = Fields> extends ResourceBase<F> {
  readonly storage: 'line';
  readonly resourceName: string;
  /** The parent entity's name, its id column here, the order column, and the parent's property holding the lines. */
  readonly parent: { readonly resource: string; readonly column: string; readonly order: string; readonly property: string };
  readonly customAttributes: boolean;
  /** Extra indexes after tenant/org: name suffix -> fields. */
  readonly indexes?: Readonly<Record<string, readonly string[]>>;
  /** Pairs of fields that must differ (the database refuses otherwise): check name suffix -> the two fields. */
  readonly differ?: Readonly<Record<string, readonly [string, string]>>;
}

/** Plain rows with an integer id (KPI measurements). */
export interface RowsResource<F extends Fields = Fields> extends ResourceBase<F> {
  readonly storage: 'rows';
  /** Indexes after tenant/org: name suffix -> fields. */
  readonly indexes?: Readonly<Record<string, readonly string[]>>;
}

export type Resource<F extends Fields = Fields> = EntityResource<F> | ReferenceResource<F> | LineResource<F> | RowsResource<F>;

/** Names in `key` must be the resource's own fields (a reference kind's key is its `key`). */
type CheckedKey<R extends Resource> = R extends ReferenceResource
  ? { readonly key: readonly ['key'] }
  : { readonly key: readonly (keyof R['fields'] & string)[] };

/** Declares a resource; the description keeps its literal types, so its table and rows are typed from it. */
export function defineResource<const R extends Resource>(resource: R & CheckedKey<R>): R {
  return resource;
}
