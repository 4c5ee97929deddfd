/**
 * Bulk upsert and delete of tenant reference records, staged in a unit of work (src/tenant/unit-of-work.ts): planned
 * at commit with the unit's scope, committed as one batch with their events (built by the commit path).
 */
import { and, eq, sql } from 'drizzle-orm';
import { chunkForParameters } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import { bindRequestQuery } from '../../tenant/compiled';
import { planStatement } from '../../tenant/staged-statements';
import { rowsOf } from '../../tenant/unit-of-work';
import type { GroupContext, PlannedStatement, StagedWrite } from '../../tenant/unit-of-work';
import { findGroupReferenceId } from './group-records';
import { findReferences } from './store';
import type { ReferenceInput, ReferenceKindSpec } from './spec';
import { requireTenantReferenceStore } from './tables';
import type { TenantReferenceStore } from './tables';

/** The change feed's resource of a reference kind. */
export function referenceResourceOf(spec: Pick<ReferenceKindSpec, 'name'>): string {
  return `referenceData/${spec.name}`;
}

/** How a rule of the database that refuses an atomic group's batch because of this write is worded (unit-of-work.ts). */
interface RuleWording {
  readonly recheck?: () => Promise<unknown>;
  readonly rulePaths?: readonly string[];
}

/** A record's row as inserted: its id and tenant/org, its key and its fields' values by field name. */
type ReferenceRow = { readonly id: string } & TenantScope & ReferenceInput;

/** One chunk's upsert by key and, after it, the events of its records (`created` for a new key, else `updated`). */
function planChunk(scope: TenantScope, store: TenantReferenceStore, chunk: ReferenceRow[]): PlannedStatement[] {
  const { spec, table, common } = store;
  const fields = Object.entries(spec.fields);
  const set = Object.fromEntries(fields.map(([name, field]) => [name, sql.raw(`excluded."${field.column}"`)]));
  const target = [common.tenantKey, common.orgKey, common.key];
  const upsert =
    fields.length === 0
      ? sqlBuilder.insert(table).values(chunk).onConflictDoNothing({ target })
      : sqlBuilder.insert(table).values(chunk).onConflictDoUpdate({ target, set });
  const keys = JSON.stringify(chunk.map((row) => row.key));
  const created = JSON.stringify(chunk.map((row) => row.id));
  const fieldsOfEvent = {
    resource: referenceResourceOf(spec),
    changeType: sql`case when ${common.id} in (select value from json_each(${created})) then 'created' else 'updated' end`,
    recordId: sql`${common.id}`,
    key: sql`${common.key}`,
    version: 'sequence' as const,
  };
  const from = sql`from ${table} where ${common.tenantKey} = ${scope.tenantKey} and ${common.orgKey} = ${scope.orgKey}
          and ${common.key} in (select value from json_each(${keys}))`;
  return [planStatement(upsert), { event: { fields: fieldsOfEvent, from } }];
}

/**
 * In an atomic group: each record's after-image goes in the group's overlay under the id it keeps (the stored
 * record's, or the one the group gave its key) or gets (`ids`, the insert's). Nothing is predicted on: an upsert
 * always writes (the database's rules, checked in the group's batch, refuse it there).
 */
async function predictUpsert(context: GroupContext, spec: ReferenceKindSpec, records: readonly ReferenceInput[], ids: readonly string[]) {
  const store = requireTenantReferenceStore(spec.name);
  const uses = records.map((record) => ({ kind: spec.name, key: record.key, path: '' }));
  const stored = (await findReferences(context, uses)).get(spec.name);
  records.forEach((record, index) => {
    const storedId = stored?.get(record.key)?.id;
    const kept = storedId !== undefined && context.overlay.read(spec.table, storedId) !== null ? storedId : undefined;
    const id = findGroupReferenceId(context.overlay, store, record.key) ?? kept ?? ids[index] ?? crypto.randomUUID();
    const values = Object.fromEntries(Object.keys(spec.fields).map((name) => [name, record[name] ?? null]));
    context.overlay.write(spec.table, id, { ...values, id, key: record.key });
  });
  return { result: records.length };
}

/**
 * Upserts every record by key, chunked under D1's 100-parameter limit, each chunk followed by the events of its
 * records (version: the event's sequence); its result is how many records were upserted.
 */
export function stageReferenceUpsert(
  spec: ReferenceKindSpec,
  records: readonly ReferenceInput[],
  rules: RuleWording = {},
): StagedWrite<number> {
  // The ids of new records, chosen once: an atomic group's overlay holds the ones the insert writes.
  const ids = records.map(() => crypto.randomUUID());
  return {
    predict: (context) => predictUpsert(context, spec, records, ids),
    plan({ scope }) {
      const store = requireTenantReferenceStore(spec.name);
      const rows = records.map((record, index): ReferenceRow => {
        const values = Object.fromEntries(Object.keys(spec.fields).map((name) => [name, record[name]]));
        return { id: ids[index] ?? crypto.randomUUID(), tenantKey: scope.tenantKey, orgKey: scope.orgKey, key: record.key, ...values };
      });
      return {
        table: spec.table,
        ...rules,
        statements: chunkForParameters(rows, 4 + Object.keys(spec.fields).length).flatMap((chunk) => planChunk(scope, store, chunk)),
        settle: () => records.length,
      };
    },
  };
}

/** Deletes one record by key, after its `deleted` tombstone (same condition, same transaction); whether it existed. */
export function stageReferenceDelete(spec: ReferenceKindSpec, key: string, recheck?: () => Promise<unknown>): StagedWrite<boolean> {
  return {
    // In an atomic group: the record as the group sees it is deleted (it must still be stored when the delete runs).
    async predict(context) {
      const found = await findReferences(context, [{ kind: spec.name, key, path: 'key' }], context.overlay);
      const record = found.get(spec.name)?.get(key);
      if (!record) return { result: false };
      const { table, common } = requireTenantReferenceStore(spec.name);
      context.overlay.write(spec.table, record.id, null);
      const where = and(eq(common.tenantKey, context.scope.tenantKey), eq(common.orgKey, context.scope.orgKey), eq(common.id, record.id));
      return { result: true, before: [{ table, where, exists: true }] };
    },
    plan({ scope }) {
      const { table, common } = requireTenantReferenceStore(spec.name);
      const condition = and(eq(common.tenantKey, scope.tenantKey), eq(common.orgKey, scope.orgKey), eq(common.key, key));
      const fields = {
        resource: referenceResourceOf(spec),
        changeType: 'deleted' as const,
        recordId: sql`${common.id}`,
        key,
        version: 'sequence' as const,
      };
      const returned = { id: common.id };
      const remove = bindRequestQuery(sqlBuilder.delete(table).where(condition).returning(returned), returned);
      return {
        table: spec.table,
        rulePaths: ['key'],
        ...(recheck ? { recheck } : {}),
        statements: [{ event: { fields, from: sql`from ${table} where ${condition}` } }, { statement: remove }],
        settle: ([, rows]) => rowsOf(remove, rows).length > 0,
      };
    },
  };
}
