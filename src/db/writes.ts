/**
 * The one write path: every write of tenant data runs through `runWrites`, as one D1 batch (one transaction; a
 * single statement is a batch of one). Stores and services build statements; they never execute a write
 * themselves. Statements every write needs (an outbox row, a residency guard) belong here, in one place.
 */
import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import { declareBatchKind } from './client';
import type { Database } from './client';

/** A statement of a write batch (insert, update, delete; a read that must see the batch's own writes). */
export type WriteStatement = BatchItem<'sqlite'>;

/** Runs the statements as one transaction and answers each statement's result, in order. */
export function runWrites<T extends readonly [WriteStatement, ...WriteStatement[]]>(db: Database, statements: T): Promise<BatchResponse<T>>;
/** A write of any number of statements (none: nothing runs). */
export function runWrites(db: Database, statements: readonly WriteStatement[]): Promise<readonly unknown[]>;
export async function runWrites(db: Database, statements: readonly WriteStatement[]): Promise<readonly unknown[]> {
  const [first, ...rest] = statements;
  if (!first) return [];
  return declareBatchKind(db, 'write').batch([first, ...rest]);
}
