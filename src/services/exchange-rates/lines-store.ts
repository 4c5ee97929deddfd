/** Storage of rate lines in D1; every statement is scoped by tenant and org. */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { WriteStatement } from '../../db/writes';
import { chunkRows } from '../../db/client';
import type { Database } from '../../db/client';
import type { AuditStamp } from '../../entities/repository';
import type { TenantScope } from '../../db/client';
import type { LineInput } from './lines-input';
import { exchangeRateLines, exchangeRatesDocuments, readDocumentColumn } from './table';
import type { RateLineRow } from './table';

const documents = {
  id: readDocumentColumn('id'),
  tenantKey: readDocumentColumn('tenantKey'),
  orgKey: readDocumentColumn('orgKey'),
  number: readDocumentColumn('number'),
  version: readDocumentColumn('version'),
};

const LINE_COLUMNS = 15;

export function toLineRow(scope: TenantScope, documentId: string, lineNo: number, line: LineInput, stamp: AuditStamp): RateLineRow {
  return {
    id: crypto.randomUUID(),
    tenantKey: scope.tenantKey,
    orgKey: scope.orgKey,
    documentId,
    lineNo,
    fromCurrency: line.fromCurrency,
    toCurrency: line.toCurrency,
    conversionFactor: line.conversionFactor,
    fromExchangeRateId: line.fromExchangeRateId,
    toExchangeRateId: line.toExchangeRateId,
    customAttributes: JSON.stringify(line.custom),
    createdOn: stamp.on,
    createdBy: stamp.by,
    modifiedOn: stamp.on,
    modifiedBy: stamp.by,
  };
}

/** Inserts of a new document's lines, chunked under D1's 100 bound parameters per statement. */
export function buildLineInserts(
  db: Database,
  scope: TenantScope,
  documentId: string,
  lines: readonly LineInput[],
  stamp: AuditStamp,
): WriteStatement[] {
  const rows = lines.map((line, index) => toLineRow(scope, documentId, index + 1, line, stamp));
  return chunkRows(rows, LINE_COLUMNS).map((chunk) => db.insert(exchangeRateLines).values(chunk));
}

function scopeOf(scope: TenantScope) {
  return and(eq(exchangeRateLines.tenantKey, scope.tenantKey), eq(exchangeRateLines.orgKey, scope.orgKey));
}

/** The lines of some documents, in line order. */
export async function listLinesOf(db: Database, scope: TenantScope, documentIds: readonly string[]): Promise<RateLineRow[]> {
  const rows: RateLineRow[] = [];
  // Two parameters go to tenant and org.
  for (let start = 0; start < documentIds.length; start += 90) {
    const chunk = documentIds.slice(start, start + 90);
    rows.push(
      ...(await db
        .select()
        .from(exchangeRateLines)
        .where(and(scopeOf(scope), inArray(exchangeRateLines.documentId, chunk)))
        .orderBy(asc(exchangeRateLines.documentId), asc(exchangeRateLines.lineNo))),
    );
  }
  return rows;
}

export interface DocumentRef {
  readonly id: string;
  readonly version: number;
}

export async function readDocumentRef(db: Database, scope: TenantScope, number: number): Promise<DocumentRef | undefined> {
  const rows = await db
    .select({ id: documents.id, version: documents.version })
    .from(exchangeRatesDocuments)
    .where(and(eq(documents.tenantKey, scope.tenantKey), eq(documents.orgKey, scope.orgKey), eq(documents.number, number)))
    .limit(1);
  const row = rows[0];
  return row ? { id: String(row.id), version: Number(row.version) } : undefined;
}

export async function readLine(db: Database, scope: TenantScope, documentId: string, lineId: string): Promise<RateLineRow | undefined> {
  const rows = await db
    .select()
    .from(exchangeRateLines)
    .where(and(scopeOf(scope), eq(exchangeRateLines.documentId, documentId), eq(exchangeRateLines.id, lineId)))
    .limit(1);
  return rows[0];
}

/** True while the document still has the version the write was planned against (the write's guard). */
function documentAt(document: DocumentRef) {
  return sql`exists (select 1 from ${exchangeRatesDocuments} where ${documents.id} = ${document.id} and ${documents.version} = ${document.version})`;
}

/** Bumps the document's version and audit stamp, guarded like the line statement of the same batch. */
export function bumpDocument(db: Database, document: DocumentRef, stamp: AuditStamp) {
  return db
    .update(exchangeRatesDocuments)
    .set({ version: sql`${documents.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by } as Record<string, unknown>)
    .where(and(eq(documents.id, document.id), eq(documents.version, document.version)))
    .returning({ version: documents.version });
}

/** Appends a line (next line number) while the document is at the expected version (columns in table order). */
export function insertLineAt(db: Database, document: DocumentRef, row: RateLineRow) {
  const nextLineNo = sql`(select coalesce(max(${exchangeRateLines.lineNo}), 0) + 1 from ${exchangeRateLines} where ${exchangeRateLines.documentId} = ${document.id})`;
  return db
    .insert(exchangeRateLines)
    .select(
      sql`select ${row.id}, ${row.tenantKey}, ${row.orgKey}, ${document.id}, ${nextLineNo}, ${row.fromCurrency}, ${row.toCurrency},
        ${row.conversionFactor}, ${row.fromExchangeRateId}, ${row.toExchangeRateId}, ${row.customAttributes},
        ${row.createdOn}, ${row.createdBy}, ${row.modifiedOn}, ${row.modifiedBy}
      where ${documentAt(document)}`,
    )
    .returning({ id: exchangeRateLines.id });
}

export function updateLineAt(
  db: Database,
  scope: TenantScope,
  document: DocumentRef,
  lineId: string,
  set: Partial<RateLineRow>,
  stamp: AuditStamp,
) {
  return db
    .update(exchangeRateLines)
    .set({ ...set, modifiedOn: stamp.on, modifiedBy: stamp.by })
    .where(and(scopeOf(scope), eq(exchangeRateLines.documentId, document.id), eq(exchangeRateLines.id, lineId), documentAt(document)))
    .returning({ id: exchangeRateLines.id });
}

export function deleteLineAt(db: Database, scope: TenantScope, document: DocumentRef, lineId: string) {
  return db
    .delete(exchangeRateLines)
    .where(and(scopeOf(scope), eq(exchangeRateLines.documentId, document.id), eq(exchangeRateLines.id, lineId), documentAt(document)))
    .returning({ id: exchangeRateLines.id });
}
