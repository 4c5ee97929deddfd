/**
 * The D1 table of every description (drizzle), derived from its storage and fields: column and row types follow the
 * description. `npm run db:generate` writes the migrations of these tables (src/schema.ts lists them).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { requireColumn } from '../db/client';
import type { Field, FieldKind, Fields } from './fields';
import type { EntityResource, LineResource, MemberList, ReferenceResource, RowsResource } from './resource';

/** How each field kind is stored: integers (and enums) and booleans as INTEGER, lists as JSON text, the rest as TEXT. */
const STORAGE = {
  string: 'text',
  int: 'integer',
  enum: 'integer',
  bool: 'boolean',
  decimal: 'text',
  datetime: 'text',
  guid: 'text',
  choice: 'text',
  stringList: 'keyList',
} as const satisfies Record<FieldKind, string>;

/** The column builders of each storage, optional (nullable), required (NOT NULL) or defaulted (NOT NULL DEFAULT). */
const COLUMN_BUILDERS = {
  integer: {
    optional: (name: string) => integer(name),
    required: (name: string) => integer(name).notNull(),
    defaulted: (name: string) => integer(name).notNull(),
  },
  boolean: {
    optional: (name: string) => integer(name, { mode: 'boolean' }),
    required: (name: string) => integer(name, { mode: 'boolean' }).notNull(),
    defaulted: (name: string) => integer(name, { mode: 'boolean' }).notNull().default(false),
  },
  keyList: {
    optional: (name: string) => text(name, { mode: 'json' }).$type<string[]>().notNull().default([]),
    required: (name: string) => text(name, { mode: 'json' }).$type<string[]>().notNull().default([]),
    defaulted: (name: string) => text(name, { mode: 'json' }).$type<string[]>().notNull().default([]),
  },
  text: {
    optional: (name: string) => text(name),
    required: (name: string) => text(name).notNull(),
    defaulted: (name: string) => text(name).notNull(),
  },
};

type Optionality<F extends Field> = F extends { readonly required: true }
  ? 'required'
  : F extends { readonly defaulted: true }
    ? 'defaulted'
    : 'optional';

type ColumnOf<F extends Field> = ReturnType<(typeof COLUMN_BUILDERS)[(typeof STORAGE)[F['kind']]][Optionality<F>]>;

type FieldColumns<F extends Fields> = { -readonly [K in keyof F]: ColumnOf<F[K]> };

function buildFieldColumns<F extends Fields>(fields: F): FieldColumns<F> {
  const columns: Record<string, SQLiteColumn | ReturnType<typeof text>> = {};
  for (const [name, field] of Object.entries(fields)) {
    const optionality = field.required ? 'required' : field.defaulted ? 'defaulted' : 'optional';
    columns[name] = COLUMN_BUILDERS[STORAGE[field.kind]][optionality](field.column);
  }
  // Built field by field with the mapping FieldColumns spells out.
  return columns as FieldColumns<F>;
}

function buildIdColumn() {
  return text('id').primaryKey();
}

function buildKeyColumn() {
  return text('key').notNull();
}

function buildCustomColumn() {
  return text('custom_attributes');
}

function buildScopeColumns() {
  return { tenantKey: text('tenant_key').notNull(), orgKey: text('org_key').notNull() };
}

function buildStampColumns() {
  return {
    createdOn: text('created_on').notNull(),
    createdBy: text('created_by').notNull(),
    modifiedOn: text('modified_on').notNull(),
    modifiedBy: text('modified_by').notNull(),
  };
}

/** The audit columns of an entity; new rows start active at version 1. */
function buildAuditColumns() {
  const { createdOn, createdBy, modifiedOn, modifiedBy } = buildStampColumns();
  return {
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    createdOn,
    createdBy,
    modifiedOn,
    modifiedBy,
    version: integer('version').notNull().default(1),
  };
}

/** The tie-breakers every list order ends with (and every declared index of an entity). */
const ORDER_TIE_BREAKERS = ['createdOn', 'id'] as const;

/** The columns (by field name) of a declared entity index after tenant/org: its fields, then the tie-breakers. */
export function listIndexFields(fields: readonly string[]): string[] {
  return [...fields, ...ORDER_TIE_BREAKERS.filter((name) => !fields.includes(name))];
}

type EntityColumns<R extends EntityResource> = { id: ReturnType<typeof buildIdColumn> } & ReturnType<typeof buildScopeColumns> &
  FieldColumns<R['fields']> & { customAttributes: ReturnType<typeof buildCustomColumn> } & ReturnType<typeof buildAuditColumns>;

/**
 * An entity's table: `id` (GUID), `tenant_key`, `org_key`, its fields, `custom_attributes` (JSON text) and the audit
 * fields; a unique index on the natural key, the default-order index and the declared ones, all after tenant/org.
 */
export function defineEntityTable<const R extends EntityResource>(resource: R) {
  const columns: EntityColumns<R> = Object.assign(
    { id: buildIdColumn() },
    buildScopeColumns(),
    buildFieldColumns(resource.fields),
    { customAttributes: buildCustomColumn() },
    buildAuditColumns(),
  );
  // Explicit type arguments: drizzle would otherwise resolve the generic column map too early and lose the fields.
  return sqliteTable<R['table'], EntityColumns<R>>(resource.table, columns, (table) => {
    const col = (name: string) => requireColumn(table, resource.table, name);
    const scope = [table.tenantKey, table.orgKey] as const;
    const [firstKey, ...restKey] = resource.key.map(col);
    if (!firstKey) throw new Error(`${resource.table}: an entity needs a key`);
    // Each declared index ends with (created_on, id), the default order's tie-breakers, so a filter on its columns is
    // also read in the default (or reversed) order without a sort.
    const extra = (resource.indexes ?? []).map((fields) => {
      const [first, ...rest] = listIndexFields(fields).map(col);
      if (!first) throw new Error(`${resource.table}: empty index`);
      return index(`${resource.table}_${fields.map((name) => col(name).name).join('_')}_idx`).on(...scope, first, ...rest);
    });
    return [
      uniqueIndex(`${resource.table}_key_uq`).on(...scope, firstKey, ...restKey),
      index(`${resource.table}_created_idx`).on(...scope, table.createdOn, table.id),
      ...extra,
    ];
  });
}

type ReferenceColumns<R extends ReferenceResource> = { id: ReturnType<typeof buildIdColumn> } & ReturnType<typeof buildScopeColumns> & {
    key: ReturnType<typeof buildKeyColumn>;
  } & FieldColumns<R['fields']>;

/** A tenant reference kind's table: `id`, `tenant_key`, `org_key`, `key` (unique per tenant/org), its fields. */
export function defineReferenceTable<const R extends ReferenceResource>(resource: R) {
  const columns: ReferenceColumns<R> = Object.assign(
    { id: buildIdColumn() },
    buildScopeColumns(),
    { key: buildKeyColumn() },
    buildFieldColumns(resource.fields),
  );
  return sqliteTable<R['table'], ReferenceColumns<R>>(resource.table, columns, (table) => {
    // Columns holding keys of another kind are indexed for the in-use check of deletes.
    const referenceIndexes = Object.entries(resource.fields)
      .filter(([, field]) => field.reference && field.kind !== 'stringList')
      .map(([name, field]) =>
        index(`${resource.table}_${field.column}_idx`).on(table.tenantKey, table.orgKey, requireColumn(table, resource.table, name)),
      );
    return [uniqueIndex(`${resource.table}_key_uq`).on(table.tenantKey, table.orgKey, table.key), ...referenceIndexes];
  });
}

type StandardColumns<R extends ReferenceResource> = {
  id: ReturnType<typeof buildIdColumn>;
  key: ReturnType<typeof buildKeyColumn>;
} & FieldColumns<R['fields']>;

/** A standard list's table (global, read-only): `id`, `key` (unique), its fields. */
export function defineStandardTable<const R extends ReferenceResource>(resource: R) {
  const columns: StandardColumns<R> = Object.assign({ id: buildIdColumn(), key: buildKeyColumn() }, buildFieldColumns(resource.fields));
  return sqliteTable<R['table'], StandardColumns<R>>(resource.table, columns, (table) => [
    uniqueIndex(`${resource.table}_key_uq`).on(table.key),
  ]);
}

/**
 * One table of an entity's member list: the owner's id, the scope and the member's reference key (keys never change).
 * Deleting the owner deletes its rows (ON DELETE CASCADE).
 */
export function defineMemberTable(owner: { readonly id: SQLiteColumn }, ownerColumn: string, member: MemberList) {
  const name = member.table;
  return sqliteTable(
    name,
    {
      ownerId: text(ownerColumn)
        .notNull()
        .references(() => owner.id, { onDelete: 'cascade' }),
      tenantKey: text('tenant_key').notNull(),
      orgKey: text('org_key').notNull(),
      memberKey: text(member.column).notNull(),
    },
    (table) => [
      primaryKey({ name: `${name}_pk`, columns: [table.ownerId, table.memberKey] }),
      // The in-use check of a reference delete looks members up by key.
      index(`${name}_${member.column}_idx`).on(table.tenantKey, table.orgKey, table.memberKey),
    ],
  );
}

/** A line's parent id (ON DELETE CASCADE: lines go with their parent). */
function buildParentColumn(name: string, parentId: SQLiteColumn) {
  return text(name)
    .notNull()
    .references(() => parentId, { onDelete: 'cascade' });
}

/** A line's position in its parent. */
function buildPositionColumn(name: string) {
  return integer(name).notNull();
}

type LineColumns<R extends LineResource> = { id: ReturnType<typeof buildIdColumn> } & ReturnType<typeof buildScopeColumns> & {
    parentId: ReturnType<typeof buildParentColumn>;
    position: ReturnType<typeof buildPositionColumn>;
  } & FieldColumns<R['fields']> & { customAttributes: ReturnType<typeof buildCustomColumn> } & ReturnType<typeof buildStampColumns>;

/**
 * A line table: `id`, scope, the parent's id (ON DELETE CASCADE) and the line's position in it, its fields, custom
 * attribute values and stamps; the natural key is unique within the parent, and the parent's lines are read in order.
 */
export function defineLineTable<const R extends LineResource>(resource: R, parent: { readonly id: SQLiteColumn }) {
  const columns: LineColumns<R> = Object.assign(
    { id: buildIdColumn() },
    buildScopeColumns(),
    { parentId: buildParentColumn(resource.parent.column, parent.id), position: buildPositionColumn(resource.parent.order) },
    buildFieldColumns(resource.fields),
    { customAttributes: buildCustomColumn() },
    buildStampColumns(),
  );
  return sqliteTable<R['table'], LineColumns<R>>(resource.table, columns, (table) => {
    const col = (name: string) => requireColumn(table, resource.table, name);
    const scope = [table.tenantKey, table.orgKey] as const;
    const [firstKey, ...restKey] = resource.key.map(col);
    if (!firstKey) throw new Error(`${resource.table}: a line needs a key`);
    const extra = Object.entries(resource.indexes ?? {}).map(([suffix, fields]) => {
      const [first, ...rest] = fields.map(col);
      if (!first) throw new Error(`${resource.table}: empty index`);
      return index(`${resource.table}_${suffix}_idx`).on(...scope, first, ...rest);
    });
    const differ = Object.entries(resource.differ ?? {}).map(([suffix, [a, b]]) =>
      check(`${resource.table}_${suffix}`, sql`${col(a)} <> ${col(b)}`),
    );
    return [
      uniqueIndex(`${resource.table}_pair_uq`).on(table.parentId, firstKey, ...restKey),
      ...extra,
      index(`${resource.table}_document_idx`).on(...scope, table.parentId, table.position),
      ...differ,
    ];
  });
}

type RowsColumns<R extends RowsResource> = { id: ReturnType<typeof buildRowIdColumn> } & ReturnType<typeof buildScopeColumns> &
  FieldColumns<R['fields']>;

/** A row's integer id (SQLite's rowid). */
function buildRowIdColumn() {
  return integer('id').primaryKey();
}

/** Plain rows: an integer id (the rowid), scope, fields, and the declared indexes after tenant/org. */
export function defineRowsTable<const R extends RowsResource>(resource: R) {
  const columns: RowsColumns<R> = Object.assign({ id: buildRowIdColumn() }, buildScopeColumns(), buildFieldColumns(resource.fields));
  return sqliteTable<R['table'], RowsColumns<R>>(resource.table, columns, (table) =>
    Object.entries(resource.indexes ?? {}).map(([suffix, fields]) => {
      const col = (name: string) => requireColumn(table, resource.table, name);
      const [first, ...rest] = fields.map(col);
      if (!first) throw new Error(`${resource.table}: empty index`);
      return index(`${resource.table}_${suffix}_idx`).on(table.tenantKey, table.orgKey, first, ...rest);
    }),
  );
}
