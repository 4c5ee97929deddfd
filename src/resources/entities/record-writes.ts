/**
 * The generic writes of entity records, staged in a unit of work's batch (src/tenant/unit-of-work.ts): create,
 * update of attributes, delete. Each is planned at commit with the unit's scope and audit stamp, and declares its
 * outbox event, which the commit path builds; the SQL is the same as a write run alone.
 */
import { isSQLWrapper, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { parseConstraintViolation, requireColumn } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { WriteStatement } from '../../db/writes';
import { bindCompiled, bindRequestStatement, compileWrite, textPlaceholder } from '../../tenant/compiled';
import type { CompiledStatement } from '../../tenant/compiled';
import { defineCompiledFamily } from '../../tenant/compiled-families';
import { defineCompiledEvents } from '../../tenant/unit-of-work';
import type { StagedWrite, WriteContext } from '../../tenant/unit-of-work';
import { buildDefinitionsCondition, listDefinitions } from './create-checks';
import type { CustomDefinitionSet } from './custom-attributes';
import { createdEventConstants, createdEventFields, CREATED_EVENT_PLACEHOLDERS } from './events';
import { duplicateKey, findRecord } from './store';
import type { EntityStore } from './store';

export function column(store: EntityStore, name: string): SQLiteColumn {
  return requireColumn(store.columns, store.spec.table, name);
}

/** A column's value in an insert: the row's, else the column's default (entity tables have no generated columns). */
function columnValue(row: Readonly<Record<string, unknown>>, name: string, target: SQLiteColumn): unknown {
  return row[name] !== undefined ? row[name] : (target.defaultFn?.() ?? target.default ?? null);
}

/**
 * `INSERT ... SELECT` of one row, every column named in the table's order (`bound` gives each one's SQL). With a
 * `condition` the insert is refused by the database unless it holds: the row's id is bound only when it does, so a
 * false condition fails the id's NOT NULL constraint and aborts the whole batch (the statements after it included) in
 * the same transaction. `isRefusedInsert` recognises that failure.
 */
function buildInsertSelect(store: EntityStore, bound: (name: string, target: SQLiteColumn) => SQL, condition?: SQL) {
  const values = Object.entries(store.columns).map(([name, target]) => {
    const value = bound(name, target);
    return name === 'id' && condition ? sql`CASE WHEN ${condition} THEN ${value} END` : value;
  });
  return sqlBuilder.insert(store.table).select(sql`SELECT ${sql.join(values, sql`, `)}`);
}

/** True when a batch failed because a guarded insert's condition did not hold. */
export function isRefusedInsert(store: EntityStore, error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  return text.includes(`NOT NULL constraint failed: ${store.spec.table}.${store.common.id.name}`);
}

/** What decides a create's SQL text: no condition, no definitions, or definitions (their listing is bound). */
type CreateShape = 'plain' | 'noDefinitions' | 'definitions';

/**
 * Placeholder names of a compiled create: `c:<field>` per column, `entity`, `defCount`/`defListing` for the definitions,
 * `event:*` for the event's constants.
 */
const columnPlaceholder = (name: string) => `c:${name}`;

/** A create's insert of one entity and shape with placeholders for every value, compiled (src/tenant/compiled.ts). */
function compileCreate(store: EntityStore, shape: CreateShape): CompiledStatement<never> {
  const scope = { tenantKey: textPlaceholder('tenantKey'), orgKey: textPlaceholder('orgKey') };
  const listing = shape === 'definitions' ? { count: textPlaceholder('defCount'), json: textPlaceholder('defListing') } : null;
  const condition = shape === 'plain' ? undefined : buildDefinitionsCondition(scope, textPlaceholder('entity'), listing);
  // Each column's value goes through its own encoder when the placeholder is filled (booleans, JSON, ...).
  const insert = buildInsertSelect(store, (name, target) => sql`${sql.param(sql.placeholder(columnPlaceholder(name)), target)}`, condition);
  return compileWrite(insert);
}

/** Creates' inserts, by entity and shape, compiled once per isolate. */
const createStatements = defineCompiledFamily({
  name: 'entity creates',
  shapes: (): readonly CreateShape[] => ['plain', 'noDefinitions', 'definitions'],
  keyOf: (shape: CreateShape) => shape,
  compile: compileCreate,
  statementsOf: (insert: CompiledStatement<never>) => [insert],
});

/** The `created` events of an entity, compiled once per isolate (their values filled from the create's). */
const createdEvents = defineCompiledEvents('entity created events', (store: EntityStore) =>
  createdEventFields(store, {
    id: textPlaceholder(columnPlaceholder('id')),
    values: Object.fromEntries(store.spec.key.map((name) => [name, textPlaceholder(columnPlaceholder(name))])),
    eventId: textPlaceholder('eventId'),
    constants: CREATED_EVENT_PLACEHOLDERS,
  }),
);

/** Declares an entity store's compiled writes (for the test that compiles every statement kept). */
export function declareRecordWrites(store: EntityStore): void {
  createStatements.declare(store);
  createdEvents.declare(store);
}

/** A record to create: its fields by name (id included); the audit fields and version come from the commit. */
export interface CreateRecord {
  readonly row: Readonly<Record<string, unknown>>;
  /** The request's own statements, in the same batch between the insert and its event. */
  readonly extra?: readonly WriteStatement[];
  /** With definitions, the insert happens only while the stored custom attribute definitions are exactly those. */
  readonly definitions?: CustomDefinitionSet | undefined;
  /** In an atomic group refused by a rule of the database: the create's checks, run again, and the fields they concern. */
  readonly recheck?: () => Promise<unknown>;
  readonly rulePaths?: readonly string[];
}

/** The placeholders' values of a create: the row with the unit's scope and stamp, the definitions, the event's. */
function createValues(context: WriteContext, store: EntityStore, create: CreateRecord): Record<string, unknown> {
  const { scope, stamp } = context;
  const listing = create.definitions ? listDefinitions(create.definitions) : null;
  const row = { ...create.row, ...scope, version: 1, createdOn: stamp.on, createdBy: stamp.by, modifiedOn: stamp.on, modifiedBy: stamp.by };
  const values: Record<string, unknown> = {
    tenantKey: scope.tenantKey,
    orgKey: scope.orgKey,
    entity: store.spec.name,
    ...(listing ? { defCount: listing.count, defListing: listing.json } : {}),
  };
  for (const [name, target] of Object.entries(store.columns)) {
    const value = columnValue(row, name, target);
    if (isSQLWrapper(value)) throw new Error(`${store.spec.table}.${name}: a create binds values, not SQL.`);
    values[columnPlaceholder(name)] = value;
  }
  return values;
}

/**
 * A create: the row's insert (compiled once per isolate and entity), the request's own statements, and its `created`
 * event. With `definitions`, the insert only happens while the stored definitions are exactly those
 * (`isRefusedInsert` tells the refusal from other errors); a refused insert aborts the batch, its event included.
 */
export function stageCreate(store: EntityStore, create: CreateRecord): StagedWrite<void> {
  return {
    // In an atomic group: the stored row as the insert writes it is the group's after-image of the record; a key
    // taken meanwhile or changed definitions refuse the group's batch as they refuse the create's own.
    async predict(context) {
      const values = createValues(context, store, create);
      const image = Object.fromEntries(Object.keys(store.columns).map((name) => [name, values[columnPlaceholder(name)]]));
      context.overlay.write(store.spec.table, String(create.row.id), image);
      return { result: undefined };
    },
    plan(context) {
      const shape: CreateShape =
        create.definitions === undefined ? 'plain' : listDefinitions(create.definitions) === null ? 'noDefinitions' : 'definitions';
      const values = createValues(context, store, create);
      const eventValues = { ...values, eventId: crypto.randomUUID(), ...createdEventConstants(store) };
      return {
        table: store.spec.table,
        ...(create.rulePaths ? { rulePaths: create.rulePaths } : {}),
        ...(create.recheck ? { recheck: create.recheck } : {}),
        statements: [
          { statement: bindCompiled(createStatements.read(store, shape), values) },
          ...(create.extra ?? []).map((statement) => ({ statement: bindCompiled(bindRequestStatement(statement), {}) })),
          { event: { compiled: createdEvents.read(store), values: eventValues } },
        ],
        settle: () => undefined,
        explain: (error) =>
          parseConstraintViolation(error) === 'unique'
            ? duplicateKey(
                store.spec,
                store.spec.key.map((name) => create.row[name]),
              )
            : undefined,
        confirm: async () =>
          isKeyStored(
            context,
            store,
            store.spec.key.map((name) => create.row[name]),
          ),
      };
    },
  };
}

/** Whether a record of the entity with this natural key is stored (asked after a refused batch). */
export async function isKeyStored(context: WriteContext, store: EntityStore, values: readonly unknown[]): Promise<boolean> {
  return (await findRecord(context, store, { by: 'key', values })) !== undefined;
}
