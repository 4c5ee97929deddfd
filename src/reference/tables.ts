/** The D1 tables of every reference kind (read by drizzle-kit). */
import { REFERENCE_KINDS } from './kinds';
import { defineReferenceTable } from './table';
import type { ReferenceTable } from './table';

export const referenceTables: ReadonlyMap<string, ReferenceTable> = new Map(
  REFERENCE_KINDS.map((spec) => [spec.kind, defineReferenceTable(spec)]),
);

export function readReferenceTable(kind: string): ReferenceTable {
  const table = referenceTables.get(kind);
  if (!table) throw new Error(`Unknown reference kind ${kind}`);
  return table;
}
