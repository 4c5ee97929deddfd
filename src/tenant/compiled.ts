/**
 * Queries and write batches built once per isolate. Drizzle builds a query's SQL text on every run; on a hot point
 * read that costs the Worker more CPU than D1 spends answering it, and a membership batch of nested subqueries costs
 * several times that. A compiled statement keeps the text and its parameters (placeholders filled on each run) and
 * maps rows back to fields as drizzle does (each field's `mapFromDriverValue`).
 *
 * A compiled statement is kept for every later request of the isolate, whatever its tenant/org: it binds placeholders
 * only. `compileStatement` and `compileWrite` refuse a statement with any other bound value (a request's value, a
 * scope key, even a constant), so no value of one request can be reused by another. Statements of one request that
 * are never kept (`bindRequestStatement`) run beside compiled ones in the same batch.
 *
 * A compiled batch runs as one D1 batch (one transaction) of the kind its caller declares (the tenant executor).
 */
import { Column, is, Param, Placeholder, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { BoundStatement } from '../db/sql';
import type { WriteStatement } from '../db/writes';

/** What a statement's rows map to: fields by name, each a column or an SQL expression (`sql<T>`, without `mapWith`). */
export type FieldSelection = Readonly<Record<string, Column | SQL | SQL.Aliased>>;

/** What `toSQL()` of a drizzle query answers: its text and parameters (values or placeholders). */
interface BuiltQuery {
  readonly sql: string;
  readonly params: unknown[];
}

/** A statement to run in a compiled batch: SQL text, parameters (placeholders among them) and how its rows map to fields. */
export interface CompiledStatement<Row> {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** The parameters to bind, placeholders filled from `values` (each through its column's encoder when it has one). */
  fill(values: Readonly<Record<string, unknown>>): unknown[];
  mapRow(values: readonly unknown[]): Row;
}

function valueOf(values: Readonly<Record<string, unknown>>, name: string): unknown {
  if (!(name in values)) throw new Error(`No value for placeholder "${name}".`);
  return values[name];
}

/** True for a parameter that stands for a value given at run time: a placeholder, or a parameter wrapping one. */
export function isPlaceholderParam(param: unknown): boolean {
  return is(param, Placeholder) || (is(param, Param) && is(param.value, Placeholder));
}

/** Refuses a statement to be kept across requests that binds anything but placeholders. */
function requirePlaceholders(query: BuiltQuery): void {
  const bound = query.params.findIndex((param) => !isPlaceholderParam(param));
  if (bound === -1) return;
  throw new Error(
    `A compiled statement binds placeholders only: parameter ${bound + 1} of "${query.sql}" is a bound value (${JSON.stringify(query.params[bound])}); use sql.placeholder or textPlaceholder.`,
  );
}

/**
 * How to fill `params` (drizzle's `fillPlaceholders`, planned once): a placeholder takes its value, a parameter that
 * wraps one takes it through the parameter's encoder, anything else is bound as built.
 */
export function planPlaceholders(params: readonly unknown[]): (values: Readonly<Record<string, unknown>>) => unknown[] {
  const steps = params.map((param): ((values: Readonly<Record<string, unknown>>) => unknown) => {
    if (is(param, Placeholder)) return (values) => valueOf(values, param.name);
    if (is(param, Param) && is(param.value, Placeholder)) {
      const { encoder, value: placeholder } = param;
      return (values) => encoder.mapToDriverValue(valueOf(values, placeholder.name));
    }
    return () => param;
  });
  return (values) => steps.map((step) => step(values));
}

/** A column's decoder; an SQL expression's value is answered as D1 returns it (`mapWith` is not applied here). */
function decoderOf(field: Column | SQL | SQL.Aliased): (value: unknown) => unknown {
  if (is(field, Column)) return (value) => field.mapFromDriverValue(value);
  return (value) => value;
}

/** A statement of `built` whose rows are `fields`, mapped by each column's decoder. */
function compileFields<F extends FieldSelection>(built: BuiltQuery, fields: F): CompiledStatement<SelectResultFields<F>> {
  const decoders = Object.entries(fields).map(([name, field]) => [name, decoderOf(field)] as const);
  return {
    sql: built.sql,
    params: built.params,
    fill: planPlaceholders(built.params),
    mapRow(values) {
      const row: Record<string, unknown> = {};
      decoders.forEach(([name, decode], index) => {
        const value = values[index];
        row[name] = value === null || value === undefined ? null : decode(value);
      });
      // Each field holds its decoded value: the row type drizzle's select(fields) claims, by the same mapping.
      return row as SelectResultFields<F>;
    },
  };
}

/** A statement whose rows are `fields` (the statement selects or returns exactly these, in this order); placeholders only. */
export function compileStatement<F extends FieldSelection>(
  query: { toSQL(): BuiltQuery },
  fields: F,
): CompiledStatement<SelectResultFields<F>> {
  const built = query.toSQL();
  requirePlaceholders(built);
  return compileFields(built, fields);
}

function isBuildable(query: unknown): query is { toSQL(): BuiltQuery } {
  return typeof query === 'object' && query !== null && 'toSQL' in query && typeof query.toSQL === 'function';
}

function buildQuery(query: WriteStatement): BuiltQuery {
  if (!isBuildable(query)) throw new Error('A compiled write takes a drizzle query builder (it has toSQL()).');
  return query.toSQL();
}

function writeOf(built: BuiltQuery): CompiledStatement<never> {
  return {
    sql: built.sql,
    params: built.params,
    fill: planPlaceholders(built.params),
    mapRow() {
      throw new Error('A compiled write answers no rows.');
    },
  };
}

/** A statement whose rows nobody reads (an insert, update or delete without `returning`); placeholders only. */
export function compileWrite(query: WriteStatement): CompiledStatement<never> {
  const built = buildQuery(query);
  requirePlaceholders(built);
  return writeOf(built);
}

/**
 * A write of this request only (its values bound as built), to run beside compiled statements in one batch. Never
 * kept: the caches of compiled statements (compiled-families.ts) refuse it.
 */
export function bindRequestStatement(query: WriteStatement): CompiledStatement<never> {
  return writeOf(buildQuery(query));
}

/**
 * A placeholder where a builder expects a text value: drizzle binds it like the value it stands for (filled by
 * `bindCompiled`). Only for builders that put the value into SQL as is (never inspect or transform it).
 */
export function textPlaceholder(name: string): string {
  // The builders take values typed as text; a placeholder goes wherever such a value is bound.
  return sql.placeholder(name) as unknown as string;
}

/** A compiled statement with the placeholders' `values` filled. */
export function bindCompiled<Row>(statement: CompiledStatement<Row>, values: Readonly<Record<string, unknown>>): BoundStatement<Row> {
  return { sql: statement.sql, params: statement.fill(values), mapRow: (row) => statement.mapRow(row) };
}

/**
 * A statement of this request only (its values bound as built) whose rows are `fields` (it selects or returns exactly
 * these, in this order). Never kept: only the caches of compiled-families.ts keep statements.
 */
export function bindRequestQuery<F extends FieldSelection>(
  query: { toSQL(): BuiltQuery },
  fields: F,
): BoundStatement<SelectResultFields<F>> {
  const built = query.toSQL();
  const statement = compileFields(built, fields);
  return bindCompiled(statement, {});
}
