/** Storage of rate lines in D1; every statement is scoped by tenant and org. */
import { and, asc, eq, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { chunkForParameters, chunkKeys, requireColumn, scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import type { WriteStatement } from '../../db/writes';
import type { AuditStamp } from '../../resources/entities/store';
import type { LineInput } from './lines-input';
import { exchangeRateLines, exchangeRatesDocuments } from './table';
import type { RateLineRow } from './table';

const documents = exchangeRatesDocuments;
const lines = exchangeRateLines;

/** Parameters one line row binds in an insert. */
const LINE_COLUMNS = 15;

export function toLineRow(scope: TenantScope, parentId: string, position: number, line: LineInput, stamp: AuditStamp): RateLineRow {
  return {
    id: crypto.randomUUID(),
    tenantKey: scope.tenantKey,
    orgKey: scope.orgKey,
    parentId,
    position,
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
  parentId: string,
  input: readonly LineInput[],
  stamp: AuditStamp,
): WriteStatement[] {
  const rows = input.map((line, index) => toLineRow(scope, parentId, index + 1, line, stamp));
  return chunkForParameters(rows, LINE_COLUMNS).map((chunk) => db.insert(lines).values(chunk));
}

const linesOf = (scope: TenantScope) => scopeCondition(lines, scope);
const documentsOf = (scope: TenantScope) => scopeCondition(documents, scope);

/** The lines of some documents, in line order (one batch). */
export async function listLinesOf(db: Database, scope: TenantScope, documentIds: readonly string[]): Promise<RateLineRow[]> {
  const queries = chunkKeys(documentIds).map((chunk) =>
    db
      .select()
      .from(lines)
      .where(and(linesOf(scope), inArray(lines.parentId, chunk)))
      .orderBy(asc(lines.parentId), asc(lines.position)),
  );
  return (await runReads(db, queries)).flat();
}

export interface DocumentRef {
  readonly id: string;
  /** The version the write is guarded by; undefined: any version (the client sent no If-Match). */
  readonly version?: number;
}

export async function findDocumentRef(db: Database, scope: TenantScope, number: number): Promise<Required<DocumentRef> | undefined> {
  const rows = await db
    .select({ id: documents.id, version: documents.version })
    .from(documents)
    .where(and(documentsOf(scope), eq(documents.number, number)))
    .limit(1);
  return rows[0];
}

export async function findLine(db: Database, scope: TenantScope, parentId: string, lineId: string): Promise<RateLineRow | undefined> {
  const rows = await db
    .select()
    .from(lines)
    .where(and(linesOf(scope), eq(lines.parentId, parentId), eq(lines.id, lineId)))
    .limit(1);
  return rows[0];
}

function versionGuard(document: DocumentRef) {
  return document.version === undefined ? sql`1 = 1` : eq(documents.version, document.version);
}

/** True while the document exists (at the version the write was planned against, when it has one: the guard). */
function documentAt(scope: TenantScope, document: DocumentRef) {
  return sql`exists (select 1 from ${documents} where ${documentsOf(scope)} and ${documents.id} = ${document.id} and ${versionGuard(document)})`;
}

/**
 * Bumps the document's version and audit stamp, guarded like the line statement of the same batch, and only when
 * that statement (the one just before it in the batch) changed a row: a no-op line write leaves the version alone.
 */
export function buildDocumentBump(db: Database, scope: TenantScope, document: DocumentRef, stamp: AuditStamp) {
  return db
    .update(documents)
    .set({ version: sql`${documents.version} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by })
    .where(and(documentsOf(scope), eq(documents.id, document.id), versionGuard(document), sql`changes() > 0`))
    .returning({ version: documents.version });
}

/** Appends a line (next line number) while the document is at the expected version (columns in table order). */
export function buildLineInsert(db: Database, scope: TenantScope, document: DocumentRef, row: RateLineRow) {
  const nextLineNo = sql`(select coalesce(max(${lines.position}), 0) + 1 from ${lines} where ${linesOf(scope)} and ${lines.parentId} = ${document.id})`;
  // Every column in the table's order (the insert names them so): the row's values, the position after the last line.
  const values = Object.keys(getTableColumns(lines)).map((name) =>
    name === 'position' ? nextLineNo : name === 'parentId' ? sql`${document.id}` : sql`${row[name as keyof RateLineRow]}`,
  );
  return db
    .insert(lines)
    .select(sql`select ${sql.join(values, sql`, `)} where ${documentAt(scope, document)}`)
    .returning({ id: lines.id });
}

type LineColumns = Pick<
  RateLineRow,
  'conversionFactor' | 'fromCurrency' | 'toCurrency' | 'fromExchangeRateId' | 'toExchangeRateId' | 'customAttributes'
>;

/** Columns a line update may set (an SQL expression computes a value from the stored one, e.g. json_set). */
export type LineChange = { readonly [K in keyof LineColumns]?: LineColumns[K] | SQL };

const lineColumns = getTableColumns(lines);

export function buildLineUpdate(
  db: Database,
  scope: TenantScope,
  document: DocumentRef,
  lineId: string,
  set: LineChange,
  stamp: AuditStamp,
) {
  // Only when a value changes (NULL-safe), so that an identical PUT is a no-op.
  const changed = or(
    ...Object.entries(set).map(([name, value]) => sql`${requireColumn(lineColumns, 'exchange_rate_lines', name)} IS NOT ${value}`),
  );
  return db
    .update(lines)
    .set({ ...set, modifiedOn: stamp.on, modifiedBy: stamp.by })
    .where(and(linesOf(scope), eq(lines.parentId, document.id), eq(lines.id, lineId), documentAt(scope, document), changed))
    .returning({ id: lines.id });
}

export function buildLineDelete(db: Database, scope: TenantScope, document: DocumentRef, lineId: string) {
  return db
    .delete(lines)
    .where(and(linesOf(scope), eq(lines.parentId, document.id), eq(lines.id, lineId), documentAt(scope, document)))
    .returning({ id: lines.id });
}
