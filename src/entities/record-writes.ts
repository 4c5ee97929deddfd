/**
 * The generic writes of entity records, staged in a unit of work's batch (src/tenant/unit-of-work.ts): create,
 * update of attributes, delete. Each is planned at commit with the unit's scope and audit stamp, and declares its
 * outbox event, which the commit path builds; the SQL is the same as a write run alone.
 */
import { and, eq, isSQLWrapper, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { parseConstraintViolation, requireColumn } from '../db/client';
import type { Database, TenantScope } from '../db/client';
import type { WriteStatement } from '../db/writes';
import { bindCompiled, bindRequestQuery, bindRequestStatement, compileWrite, textPlaceholder } from '../tenant/compiled';
import type { CompiledStatement } from '../tenant/compiled';
import { defineCompiledFamily } from '../tenant/compiled-families';
import { defineCompiledEvents, rowsOf } from '../tenant/unit-of-work';
import type { GroupContext, GroupPrediction, StagedWrite, WriteContext } from '../tenant/unit-of-work';
import { buildDefinitionsCondition, listDefinitions } from './create-checks';
import type { CustomDefinitionSet } from './custom-attributes';
import { createdEventConstants, createdEventFields, CREATED_EVENT_PLACEHOLDERS, deletedEventOf, updatedEventOf } from './events';
import { findThroughGroup, recordAtVersion } from './group-reads';
import { duplicateKey, findRecord, lookupIdSubquery } from './store';
import type { EntityStore, RecordLookup } from './store';

function column(store: EntityStore, name: string): SQLiteColumn {
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
function buildInsertSelect(db: Database, store: EntityStore, bound: (name: string, target: SQLiteColumn) => SQL, condition?: SQL) {
  const values = Object.entries(store.columns).map(([name, target]) => {
    const value = bound(name, target);
    return name === 'id' && condition ? sql`CASE WHEN ${condition} THEN ${value} END` : value;
  });
  return db.insert(store.table).select(sql`SELECT ${sql.join(values, sql`, `)}`);
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
function compileCreate(db: Database, store: EntityStore, shape: CreateShape): CompiledStatement<never> {
  const scope = { tenantKey: textPlaceholder('tenantKey'), orgKey: textPlaceholder('orgKey') };
  const listing = shape === 'definitions' ? { count: textPlaceholder('defCount'), json: textPlaceholder('defListing') } : null;
  const condition = shape === 'plain' ? undefined : buildDefinitionsCondition(scope, textPlaceholder('entity'), listing);
  // Each column's value goes through its own encoder when the placeholder is filled (booleans, JSON, ...).
  const insert = buildInsertSelect(
    db,
    store,
    (name, target) => sql`${sql.param(sql.placeholder(columnPlaceholder(name)), target)}`,
    condition,
  );
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
          { statement: bindCompiled(createStatements.read(context.db, store, shape), values) },
          ...(create.extra ?? []).map((statement) => ({ statement: bindCompiled(bindRequestStatement(statement), {}) })),
          { event: { compiled: createdEvents.read(context.db, store), values: eventValues } },
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
async function isKeyStored(context: WriteContext, store: EntityStore, values: readonly unknown[]): Promise<boolean> {
  return (await findRecord(context.db, store, context.scope, { by: 'key', values })) !== undefined;
}

/** The condition of a write to the one record: the lookup's record, at `expectedVersion` when given. */
function writeCondition(store: EntityStore, scope: TenantScope, lookup: RecordLookup, expectedVersion: number | undefined) {
  return and(
    eq(store.common.id, lookupIdSubquery(store, scope, lookup)),
    ...(expectedVersion === undefined ? [] : [eq(store.common.version, expectedVersion)]),
  );
}

/** True when the stored column differs from the value (NULL-safe; values are encoded as the column stores them). */
function differs(target: SQLiteColumn, value: unknown): SQL {
  return sql`${target} IS NOT ${isSQLWrapper(value) ? value : sql.param(value, target)}`;
}

/** Which record an update or delete writes, at which version (`If-Match`; undefined: any). */
export interface RecordTarget {
  readonly lookup: RecordLookup;
  readonly expectedVersion?: number | undefined;
  /** In an atomic group refused by a rule of the database: the update's checks, run again (they word the 400). */
  readonly recheck?: () => Promise<unknown>;
}

/**
 * An update of columns of one record, bumping `version` and the audit fields, in one statement, only when a value
 * changes (a no-op write never bumps the version), with its `updated` event before it. Its result is the new
 * version, or undefined when no row was updated: missing, `expectedVersion` differs, or nothing to change.
 */
export function stageUpdate(
  store: EntityStore,
  target: RecordTarget,
  set: Readonly<Record<string, unknown>>,
): StagedWrite<number | undefined> {
  return {
    predict: (context) => predictUpdate(context, store, target, set),
    plan(context) {
      const { db, scope, stamp } = context;
      const values = { ...set, version: sql`${store.common.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by };
      const condition = and(
        writeCondition(store, scope, target.lookup, target.expectedVersion),
        or(...Object.entries(set).map(([name, value]) => differs(column(store, name), value))),
      );
      const returned = { version: store.common.version };
      const update = bindRequestQuery(db.update(store.table).set(values).where(condition).returning(returned), returned);
      return {
        table: store.spec.table,
        rulePaths: Object.keys(set),
        ...(target.recheck ? { recheck: target.recheck } : {}),
        statements: [
          { event: updatedEventOf(store, condition, { changes: { attributes: Object.keys(set) }, set }) },
          { statement: update },
        ],
        settle: ([, rows]) => rowsOf(update, rows)[0]?.version,
        explain(error) {
          if (parseConstraintViolation(error) !== 'unique') return undefined;
          return duplicateKey(
            store.spec,
            store.spec.key.map((name) => (name in set ? set[name] : '(unchanged)')),
          );
        },
        // A changed key: the refusal is this update's when the new key is stored.
        confirm: async () =>
          store.spec.key.every((name) => name in set) &&
          isKeyStored(
            context,
            store,
            store.spec.key.map((name) => set[name]),
          ),
      };
    },
  };
}

/** Whether storing `value` in the column changes what it holds (as the update's `IS NOT` compares them). */
function changesColumn(target: SQLiteColumn, stored: unknown, value: unknown): boolean {
  const encode = (raw: unknown) => (raw === null || raw === undefined ? null : target.mapToDriverValue(raw));
  return encode(stored) !== encode(value);
}

/**
 * An update in an atomic group: the record as the group sees it decides, as the update's own condition would, whether
 * it changes (a new version) or not (missing, another version, nothing to change); the record at that version is
 * checked in the group's batch before it. A value computed by SQL (a JSON merge) cannot be predicted: refused.
 */
async function predictUpdate(
  context: GroupContext,
  store: EntityStore,
  target: RecordTarget,
  set: Readonly<Record<string, unknown>>,
): Promise<GroupPrediction<number | undefined>> {
  if (Object.values(set).some((value) => isSQLWrapper(value))) throw context.refuse();
  const current = await findThroughGroup(context.db, store, context.scope, context.overlay, target.lookup);
  if (!current) return { result: undefined };
  const before = [recordAtVersion(store, context.scope, current.id, current.version)];
  if (target.expectedVersion !== undefined && target.expectedVersion !== current.version) return { result: undefined, before };
  if (!Object.entries(set).some(([name, value]) => changesColumn(column(store, name), current[name], value)))
    return { result: undefined, before };
  const version = current.version + 1;
  const { stamp } = context;
  context.overlay.write(store.spec.table, current.id, { ...current, ...set, version, modifiedOn: stamp.on, modifiedBy: stamp.by });
  return { result: version, before };
}

/** A delete of one record (children go by ON DELETE CASCADE) with its tombstone; its result: whether a row was deleted. */
export function stageDelete(store: EntityStore, target: RecordTarget): StagedWrite<boolean> {
  return {
    async predict(context) {
      const current = await findThroughGroup(context.db, store, context.scope, context.overlay, target.lookup);
      if (!current) return { result: false };
      const before = [recordAtVersion(store, context.scope, current.id, current.version)];
      if (target.expectedVersion !== undefined && target.expectedVersion !== current.version) return { result: false, before };
      context.overlay.write(store.spec.table, current.id, null);
      return { result: true, before };
    },
    plan({ db, scope }) {
      const condition = writeCondition(store, scope, target.lookup, target.expectedVersion);
      const returned = { id: store.common.id };
      const remove = bindRequestQuery(db.delete(store.table).where(condition).returning(returned), returned);
      return {
        table: store.spec.table,
        statements: [{ event: deletedEventOf(store, condition) }, { statement: remove }],
        settle: ([, rows]) => rowsOf(remove, rows).length > 0,
      };
    },
  };
}
