/** Derives an entity's D1 table (drizzle) from its description; the table's column and row types follow the spec. */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { requireColumn } from '../../db/client';
import { buildFieldColumns, buildIdColumn, buildScopeColumns } from '../description/columns';
import type { ColumnOf, ColumnStorage } from '../description/columns';
import type { FieldKind } from '../../validation/values';
import { AUDIT_FIELDS } from './audit';
import type { AuditFieldName } from './audit';
import { listIndexFields } from './odata-fields';
import type { EntitySpec, FieldSpecs } from './spec';

/** How each field kind is stored: integers (and enums) and booleans as INTEGER, everything else as TEXT. */
const STORAGE = {
  string: 'text',
  int: 'integer',
  enum: 'integer',
  bool: 'boolean',
  decimal: 'text',
  datetime: 'text',
  guid: 'text',
} as const satisfies Record<FieldKind, ColumnStorage>;

type ColumnsOf<F extends FieldSpecs> = { -readonly [K in keyof F]: ColumnOf<(typeof STORAGE)[F[K]['kind']], F[K]> };

function buildColumns<F extends FieldSpecs>(fields: F): ColumnsOf<F> {
  // Built field by field with the mapping ColumnsOf spells out.
  return buildFieldColumns(fields, (field) => STORAGE[field.kind]) as ColumnsOf<F>;
}

/** The audit columns, named by their one definition (AUDIT_FIELDS); new rows start active at version 1. */
function buildAuditColumns() {
  const { isActive, createdOn, createdBy, modifiedOn, modifiedBy, version } = AUDIT_FIELDS;
  return {
    isActive: integer(isActive.column, { mode: 'boolean' }).notNull().default(true),
    createdOn: text(createdOn.column).notNull(),
    createdBy: text(createdBy.column).notNull(),
    modifiedOn: text(modifiedOn.column).notNull(),
    modifiedBy: text(modifiedBy.column).notNull(),
    version: integer(version.column).notNull().default(1),
  } satisfies Record<AuditFieldName, unknown>;
}

/** The first columns of every entity row. */
function buildIdentityColumns() {
  return { id: buildIdColumn(), ...buildScopeColumns() };
}

/** The entity's columns: identity and scope, its fields, custom attribute values (JSON text), the audit fields. */
type EntityColumns<S extends EntitySpec> = ReturnType<typeof buildIdentityColumns> &
  ColumnsOf<S['fields']> & { customAttributes: ReturnType<typeof buildCustomAttributesColumn> } & ReturnType<typeof buildAuditColumns>;

function buildCustomAttributesColumn() {
  return text('custom_attributes');
}

/**
 * The entity's table: `id` (GUID), `tenant_key`, `org_key`, its fields, `custom_attributes` (JSON text) and the audit
 * fields; a unique index on the natural key, the default-order index and the declared ones, all after tenant/org.
 */
export function defineEntityTable<const S extends EntitySpec>(spec: S) {
  const columns: EntityColumns<S> = Object.assign(
    buildIdentityColumns(),
    buildColumns(spec.fields),
    { customAttributes: buildCustomAttributesColumn() },
    buildAuditColumns(),
  );
  // Explicit type arguments: drizzle would otherwise resolve the generic column map too early and lose the fields.
  return sqliteTable<S['table'], EntityColumns<S>>(spec.table, columns, (table) => {
    const col = (name: string) => requireColumn(table, spec.table, name);
    const scope = [table.tenantKey, table.orgKey] as const;
    const [firstKey, ...restKey] = spec.key.map(col);
    if (!firstKey) throw new Error(`${spec.table}: an entity needs a key`);
    // Each declared index ends with (created_on, id), the default order's tie-breakers, so a filter on its
    // columns is also read in the default (or reversed) order without a sort.
    const extra = (spec.indexes ?? []).map((fields) => {
      const [first, ...rest] = listIndexFields(fields).map(col);
      if (!first) throw new Error(`${spec.table}: empty index`);
      return index(`${spec.table}_${fields.map((name) => col(name).name).join('_')}_idx`).on(...scope, first, ...rest);
    });
    return [
      uniqueIndex(`${spec.table}_key_uq`).on(...scope, firstKey, ...restKey),
      index(`${spec.table}_created_idx`).on(...scope, table.createdOn, table.id),
      ...extra,
    ];
  });
}

export type EntityTable<S extends EntitySpec = EntitySpec> = ReturnType<typeof defineEntityTable<S>>;

/** A stored row of the entity, typed from its description. */
export type EntityRow<S extends EntitySpec = EntitySpec> = EntityTable<S>['$inferSelect'];
