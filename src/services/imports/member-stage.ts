/**
 * Members an upsert adds to a stored record (routes: `locations`, ...), and their removal by a revert, as the
 * membership operations write them: the member rows, the record's version + 1 and its `updated` event naming the keys
 * (`{"members":{"locations":{"added":["L1"]}}}`), all conditioned on the record being at the version the change
 * expects, so either all of it is written or none.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import { updatedEventOf } from '../../resources/entities/events';
import { bindVersionTouch } from '../../resources/entities/record-updates';
import type { ImportTemplate, MemberPair } from '../../resources/entities/import-template';
import type { EntityStore } from '../../resources/entities/store';
import { bindCompiled, bindRequestStatement } from '../../tenant/compiled';
import { rowsOf } from '../../tenant/unit-of-work';
import type { StagedWrite } from '../../tenant/unit-of-work';

/** Keys of one member column added to (or removed from) a record. */
export interface MemberChange {
  readonly column: string;
  readonly keys: readonly string[];
}

/** A member change of one record at `expectedVersion`; `stamped`: also only while its last change is this unit's (a restore just made). */
interface RecordMembers {
  readonly id: string;
  readonly expectedVersion: number;
  readonly members: readonly MemberChange[];
  readonly action: 'added' | 'removed';
  readonly stamped?: boolean;
}

/** Stages the change; its result: whether it was written (the record was at the expected version). */
export function stageRecordMembers(template: ImportTemplate, store: EntityStore, change: RecordMembers): StagedWrite<boolean> {
  return {
    plan(context) {
      const { scope, stamp } = context;
      const condition = and(
        scopeCondition(store.common, scope),
        eq(store.common.id, change.id),
        eq(store.common.version, change.expectedVersion),
        ...(change.stamped ? [eq(store.common.modifiedOn, stamp.on), eq(store.common.modifiedBy, stamp.by)] : []),
      );
      const onlyIf: SQL = sql`EXISTS (SELECT 1 FROM ${store.table} WHERE ${condition})`;
      const rows = change.members.map(({ column, keys }) => {
        const member = template.members?.find((item) => item.column === column);
        if (!member) throw new Error(`No member column ${column}.`);
        const pairs = keys.map((key): MemberPair => [change.id, key]);
        const statement = change.action === 'added' ? member.insert(scope, pairs, onlyIf) : member.remove(scope, pairs, onlyIf);
        return { statement: bindCompiled(bindRequestStatement(statement), {}) };
      });
      const changes = { members: Object.fromEntries(change.members.map(({ column, keys }) => [column, { [change.action]: keys }])) };
      const touch = bindVersionTouch(context, store, condition);
      return {
        table: store.spec.table,
        // The event and the member rows while the record is at the expected version, then the bump that ends it.
        statements: [{ event: updatedEventOf(store, condition, { changes }) }, ...rows, { statement: touch }],
        settle: (results) => rowsOf(touch, results.at(-1)).length > 0,
      };
    },
  };
}
