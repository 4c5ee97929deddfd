/**
 * The generic updates and deletes of one entity record, staged in a unit of work's batch (src/tenant/unit-of-work.ts)
 * beside the creates of record-writes.ts: each at the version asked (`If-Match`), with its outbox event.
 */
import { and, eq, isSQLWrapper, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { parseConstraintViolation } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import { bindRequestQuery } from '../../tenant/compiled';
import { rowsOf } from '../../tenant/unit-of-work';
import type { GroupContext, GroupPrediction, StagedWrite, WriteContext } from '../../tenant/unit-of-work';
import { deletedEventOf, updatedEventOf } from './events';
import { findThroughGroup, recordAtVersion } from './group-reads';
import { duplicateKey, lookupIdSubquery } from './store';
import { column, isKeyStored } from './record-writes';
import type { EntityRecord, EntityStore, RecordLookup } from './store';

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
  /**
   * In an atomic group, the values of `set` that SQL computes from the stored row (a JSON merge), computed from the
   * record as the group sees it: the update then writes these (at the version read, checked in the group's batch).
   */
  readonly compute?: (current: EntityRecord) => Readonly<Record<string, unknown>>;
  /** The `updated` event lists only the attributes whose value changes (computed from the row it updates), not every one set. */
  readonly listChanged?: boolean;
}

/** `{"attributes": [...]}` of the attributes of `set` whose stored value differs, as SQL over the row before the update. */
function changedAttributes(store: EntityStore, set: Readonly<Record<string, unknown>>): SQL {
  const names = Object.entries(set).map(([name, value]) => sql`case when ${differs(column(store, name), value)} then ${name} end`);
  return sql`json_object('attributes', json((select json_group_array(value) from json_each(json_array(${sql.join(names, sql`, `)})) where value is not null)))`;
}

/**
 * An update of columns of one record, bumping `version` and the audit fields, in one statement, only when a value
 * changes (a no-op write never bumps the version), with its `updated` event before it. Its result is the new
 * version, or undefined when no row was updated: missing, `expectedVersion` differs, or nothing to change.
 */
export function stageUpdate(
  store: EntityStore,
  target: RecordTarget,
  given: Readonly<Record<string, unknown>>,
): StagedWrite<number | undefined> {
  // In an atomic group: the values predicted (`compute`d from the record as the group sees it), which the plan writes.
  let predicted: Readonly<Record<string, unknown>> | undefined;
  return {
    async predict(context) {
      const prediction = await predictUpdate(context, store, target, given);
      predicted = prediction.set;
      return prediction.prediction;
    },
    plan(context) {
      const { scope, stamp } = context;
      const set = predicted ?? given;
      const values = { ...set, version: sql`${store.common.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by };
      const condition = and(
        writeCondition(store, scope, target.lookup, target.expectedVersion),
        or(...Object.entries(set).map(([name, value]) => differs(column(store, name), value))),
      );
      const returned = { version: store.common.version };
      const update = bindRequestQuery(sqlBuilder.update(store.table).set(values).where(condition).returning(returned), returned);
      return {
        table: store.spec.table,
        rulePaths: Object.keys(set),
        ...(target.recheck ? { recheck: target.recheck } : {}),
        statements: [
          {
            event: updatedEventOf(store, condition, {
              changes: target.listChanged ? changedAttributes(store, set) : { attributes: Object.keys(set) },
              set,
            }),
          },
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
 * checked in the group's batch before it. A value computed by SQL (a JSON merge) is predicted by the target's
 * `compute` (what the update then writes), else refused.
 */
async function predictUpdate(
  context: GroupContext,
  store: EntityStore,
  target: RecordTarget,
  given: Readonly<Record<string, unknown>>,
): Promise<{ prediction: GroupPrediction<number | undefined>; set?: Readonly<Record<string, unknown>> }> {
  const computed = Object.values(given).some((value) => isSQLWrapper(value));
  if (computed && !target.compute) throw context.refuse();
  const current = await findThroughGroup(context, store, context.overlay, target.lookup);
  if (!current) return { prediction: { result: undefined } };
  const set = target.compute ? { ...given, ...target.compute(current) } : given;
  if (Object.values(set).some((value) => isSQLWrapper(value))) throw context.refuse();
  const before = [recordAtVersion(store, context.scope, current.id, current.version)];
  if (target.expectedVersion !== undefined && target.expectedVersion !== current.version)
    return { prediction: { result: undefined, before }, set };
  if (!Object.entries(set).some(([name, value]) => changesColumn(column(store, name), current[name], value)))
    return { prediction: { result: undefined, before }, set };
  const version = current.version + 1;
  const { stamp } = context;
  context.overlay.write(store.spec.table, current.id, { ...current, ...set, version, modifiedOn: stamp.on, modifiedBy: stamp.by });
  return { prediction: { result: version, before }, set };
}

/** A delete of one record (children go by ON DELETE CASCADE) with its tombstone; its result: whether a row was deleted. */
export function stageDelete(store: EntityStore, target: RecordTarget): StagedWrite<boolean> {
  return {
    async predict(context) {
      const current = await findThroughGroup(context, store, context.overlay, target.lookup);
      if (!current) return { result: false };
      const before = [recordAtVersion(store, context.scope, current.id, current.version)];
      if (target.expectedVersion !== undefined && target.expectedVersion !== current.version) return { result: false, before };
      context.overlay.write(store.spec.table, current.id, null);
      return { result: true, before };
    },
    plan({ scope }) {
      const condition = writeCondition(store, scope, target.lookup, target.expectedVersion);
      const returned = { id: store.common.id };
      const remove = bindRequestQuery(sqlBuilder.delete(store.table).where(condition).returning(returned), returned);
      return {
        table: store.spec.table,
        statements: [{ event: deletedEventOf(store, condition) }, { statement: remove }],
        settle: ([, rows]) => rowsOf(remove, rows).length > 0,
      };
    },
  };
}

/**
 * A record's version bump (and audit stamp) where `condition` holds, answering its id: the record-level write of a
 * change made to its children (members, rate lines), which the `updated` event describes.
 */
export function bindVersionTouch({ stamp }: WriteContext, store: EntityStore, condition: SQL | undefined) {
  const returned = { id: store.common.id };
  return bindRequestQuery(
    sqlBuilder
      .update(store.table)
      .set({ version: sql`${store.common.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by })
      .where(condition)
      .returning(returned),
    returned,
  );
}
