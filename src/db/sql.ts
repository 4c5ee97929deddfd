/**
 * Drizzle as a SQL builder only: `sqlBuilder.select/insert/update/delete(...)` build statements whose text,
 * parameters and row mapping the tenant executor runs (executor.ts). Nothing runs here: a builder awaited directly
 * throws (its session refuses), so every statement goes through the executor; `bindSelect` turns a select into the
 * executor's bound statement, its rows mapped to fields as drizzle maps them.
 */
import { Column, is, SQL } from 'drizzle-orm';
import type { Query } from 'drizzle-orm';
import { BaseSQLiteDatabase, SQLiteAsyncDialect, SQLitePreparedQuery, SQLiteSession } from 'drizzle-orm/sqlite-core';
import type { SelectedFieldsOrdered } from 'drizzle-orm/sqlite-core';

const REFUSAL = 'sqlBuilder builds statements; the tenant executor runs them (src/tenant/placement/executor.ts).';

type Decode = (value: unknown) => unknown;

/** An expression's decoder (`mapWith`, as drizzle's own `count()` sets), when it has one. */
function expressionDecoder(expression: SQL): Decode {
  const decoder: unknown = 'decoder' in expression ? expression.decoder : undefined;
  if (
    typeof decoder === 'object' &&
    decoder !== null &&
    'mapFromDriverValue' in decoder &&
    typeof decoder.mapFromDriverValue === 'function'
  ) {
    const map: unknown = decoder.mapFromDriverValue;
    return (value) => (map as (value: unknown) => unknown).call(decoder, value);
  }
  return (value) => value;
}

/** How one selected field's value is decoded: a column's decoder, an expression's `mapWith`, else as D1 answers it. */
function decoderOf(field: SelectedFieldsOrdered[number]['field']): Decode {
  if (is(field, Column)) return (value) => field.mapFromDriverValue(value);
  if (is(field, SQL)) return expressionDecoder(field);
  if (is(field, SQL.Aliased)) return expressionDecoder(field.sql);
  return (value) => value;
}

/** A statement drizzle built: its text and parameters, and how a row (values in select order) maps to its fields. */
class BuiltStatement extends SQLitePreparedQuery<{ type: 'async'; run: never; all: never; get: never; values: never; execute: never }> {
  readonly names: readonly string[];
  readonly decoders: readonly Decode[];

  constructor(query: Query, fields: SelectedFieldsOrdered | undefined) {
    super('async', 'all', query);
    const ordered = fields ?? [];
    this.names = ordered.map(({ path }) => {
      if (path.length !== 1 || path[0] === undefined) throw new Error(`A tenant read selects flat fields; "${path.join('.')}" is nested.`);
      return path[0];
    });
    this.decoders = ordered.map(({ field }) => decoderOf(field));
  }

  mapRow(values: readonly unknown[]): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    this.names.forEach((name, index) => {
      const value = values[index];
      row[name] = value === null || value === undefined ? null : (this.decoders[index] ?? ((raw: unknown) => raw))(value);
    });
    return row;
  }

  run(): never {
    throw new Error(REFUSAL);
  }

  all(): never {
    throw new Error(REFUSAL);
  }

  get(): never {
    throw new Error(REFUSAL);
  }

  values(): never {
    throw new Error(REFUSAL);
  }
}

/** A session that runs nothing: preparing a statement answers what drizzle built (for `bindSelect`). */
class BuilderSession extends SQLiteSession<'async', D1Result, Record<string, never>, Record<string, never>> {
  prepareQuery(query: Query, fields: SelectedFieldsOrdered | undefined): BuiltStatement {
    return new BuiltStatement(query, fields);
  }

  /** Runs nothing (a transaction is a session's write batch): refused, its work never called. */
  transaction<T>(): Promise<T> {
    return Promise.reject(new Error(REFUSAL));
  }
}

const dialect = new SQLiteAsyncDialect();

/** The SQL builder of tenant statements (D1's SQLite dialect). */
export const sqlBuilder = new BaseSQLiteDatabase<'async', D1Result, Record<string, never>, Record<string, never>>(
  'async',
  dialect,
  new BuilderSession(dialect),
  undefined,
);

/** A raw SQL statement (one the builder cannot express) as a query: its text and parameters in D1's dialect. */
export function buildRawQuery(query: SQL): { toSQL(): Query } {
  return { toSQL: () => dialect.sqlToQuery(query) };
}

/** A statement with its parameters filled: ready to run in a batch, its rows mapped to fields. */
export interface BoundStatement<Row> {
  readonly sql: string;
  readonly params: readonly unknown[];
  mapRow(values: readonly unknown[]): Row;
}

/** A select built by `sqlBuilder`, answering rows of type `T` (inserts, updates and deletes are not selects). */
export interface SelectQuery<T> extends PromiseLike<T[]> {
  readonly _: { readonly selectMode: unknown };
  prepare(): unknown;
}

/** A select as the executor runs it: its text, parameters and row mapping (drizzle's, field by field). */
export function bindSelect<T>(query: SelectQuery<T>): BoundStatement<T> {
  const built = query.prepare();
  if (!(built instanceof BuiltStatement)) throw new Error('bindSelect takes a select built by sqlBuilder.');
  const { sql, params } = built.getQuery();
  // The row has the select's fields, each decoded as drizzle decodes them: the T its builder answers.
  return { sql, params, mapRow: (values) => built.mapRow(values) as T };
}
