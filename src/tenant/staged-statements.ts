/**
 * Staged writes of plain drizzle statements (src/tenant/unit-of-work.ts), for services whose writes need nothing but
 * the unit's scope and stamp: statements whose rows nobody reads, or one statement whose returned rows are the result.
 * Built at commit, with the unit's context; never compiled (each is this request's own).
 */
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { WriteStatement } from '../db/writes';
import { bindCompiled, bindRequestQuery, bindRequestStatement } from './compiled';
import type { FieldSelection } from './compiled';
import { rowsOf } from './unit-of-work';
import type { PlannedStatement, StagedWrite, WriteContext } from './unit-of-work';

/** A statement of this request whose rows nobody reads, as a plan's statement. */
export function planStatement(statement: WriteStatement): PlannedStatement {
  return { statement: bindCompiled(bindRequestStatement(statement), {}) };
}

/** Statements of `table` (in batch order) whose rows nobody reads. */
export function stageStatements(table: string, build: (context: WriteContext) => readonly WriteStatement[]): StagedWrite<void> {
  return {
    plan: (context) => ({ table, statements: build(context).map(planStatement), settle: () => undefined }),
  };
}

/** One statement of `table` that returns `fields` (`returning(fields)`); its result is the rows it returned. */
export function stageReturning<F extends FieldSelection>(
  table: string,
  fields: F,
  build: (context: WriteContext) => { toSQL(): { sql: string; params: unknown[] } },
): StagedWrite<SelectResultFields<F>[]> {
  return {
    plan(context) {
      const statement = bindRequestQuery(build(context), fields);
      return { table, statements: [{ statement }], settle: ([rows]) => [...rowsOf(statement, rows)] };
    },
  };
}
