/**
 * The read side of a tenant/org's session (src/tenant/session.ts opens it): selects built by `sqlBuilder` and bound
 * statements, each call one round trip, no write method. Here, at the bottom, so that every layer may read through it.
 */
import type { TenantScope } from './client';
import type { BoundStatement, SelectQuery } from './sql';

/** The rows of each select of a batch, in order. */
export type RowsOf<Q extends readonly SelectQuery<unknown>[]> = {
  -readonly [K in keyof Q]: Q[K] extends SelectQuery<infer T> ? T[] : never;
};

/** The read side of a tenant/org: selects and compiled reads, each call one round trip. */
export interface TenantReader {
  /** The tenant/org every statement of the session is for. */
  readonly scope: TenantScope;
  /** One select (built by `sqlBuilder`), one round trip. */
  read<T>(query: SelectQuery<T>): Promise<T[]>;
  /** Several selects in one round trip (one D1 batch); each one's rows, in order. */
  readBatch<const Q extends readonly SelectQuery<unknown>[]>(queries: Q): Promise<RowsOf<Q>>;
  /** Bound reads (compiled statements) as one batch of the declared kind; each one's rows, in order. */
  readBound(kind: 'read' | 'residentRead', statements: readonly BoundStatement<unknown>[]): Promise<unknown[][]>;
}
