/** Read-only batches: several queries in one D1 round trip. */
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from './client';

/** Runs queries of one shape (e.g. one per chunk of keys) as one batch; answers each query's rows, in order. */
export async function runReads<Q extends BatchItem<'sqlite'>>(db: Database, queries: readonly Q[]): Promise<Q['_']['result'][]> {
  const [first, ...rest] = queries;
  if (!first) return [];
  return db.batch([first, ...rest]);
}
