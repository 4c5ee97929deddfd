/**
 * Exchange rates documents from a file (template `exchangeRatesDocuments`: one row per rate line, the document's columns
 * repeated on each of its rows, consecutive rows of one `number` forming one document; src/services/exchange-rates/
 * import-rows.ts). A new document is written as POST /exchangeRatesDocuments writes it with its lines (the document,
 * its lines, its `created` event: the create's own staged write); its currencies must exist (`unknownReference`), its
 * custom attributes match their definitions. `mode=create` refuses a stored number (as the create does); `mode=upsert`
 * updates a stored document's columns that differ (as their attribute PUTs) and adds the lines whose pair it does not
 * hold (as POST .../exchangeRateDocumentRates: the lines, version + 1 and an `updated` event); a pair it holds with
 * other values is refused as that POST refuses it (`pairExists`), with the same values it changes nothing. Every
 * chunk and undo retires the cached rate lookups, as the API's writes do.
 */
import { and, sql } from 'drizzle-orm';
import { requireColumn, scopeCondition } from '../../db/client';
import type { FieldError } from '../../errors/api-error';
import { loadCustomDefinitions, validateCustomValues } from '../../resources/entities/custom-attributes';
import type { CustomAttributeDefinition } from '../../resources/entities/custom-attributes';
import type { ChunkContext, ImportRowBody, ImportWriter, PlannedChunk, RowRefusal } from '../../resources/entities/import-writer';
import { duplicateKey } from '../../resources/entities/store';
import { message } from '../../messages/catalogue';
import { findReferences } from '../../resources/reference/store';
import type { FoundReferences } from '../../resources/reference/store';
import type { TenantUnit } from '../../tenant/unit-of-work';
import { exchangeRatesDocumentSpec } from './entity';
import { groupDocumentRows } from './import-rows';
import type { DocumentGroup, RowLine } from './import-rows';
import { planDocumentsUndo, stageDocumentWrites } from './import-stage';
import type { DocumentCreate, DocumentUpdate } from './import-stage';
import { listLinesOf } from './lines-store';
import { bumpRatesGeneration } from './rate-cache';
import { exchangeRatesDocumentStore } from './table';
import type { RateLineRow } from './table';

const store = exchangeRatesDocumentStore;
const NUMBER = requireColumn(store.columns, store.spec.table, 'number');

type StoredDocument = Readonly<Record<string, unknown>> & { readonly id: string; readonly version: number; readonly number: number };

/** What a chunk's check read. */
interface ChunkReads {
  readonly definitions: readonly CustomAttributeDefinition[];
  readonly found: FoundReferences;
  readonly stored: ReadonlyMap<number, StoredDocument>;
  readonly storedLines: ReadonlyMap<string, readonly RateLineRow[]>;
}

async function readChunk(unit: TenantUnit, groups: readonly DocumentGroup[], mode: ChunkContext['mode']): Promise<ChunkReads> {
  const uses = groups.flatMap((group) =>
    group.lines.flatMap(({ line }) => [
      { kind: 'currencies', key: line.fromCurrency, path: 'fromCurrency' },
      { kind: 'currencies', key: line.toCurrency, path: 'toCurrency' },
    ]),
  );
  const numbers = JSON.stringify(groups.map((group) => group.number));
  const rows: Record<string, unknown>[] =
    groups.length === 0
      ? []
      : await unit.db
          .select()
          .from(store.table)
          .where(and(scopeCondition(store.common, unit.scope), sql`${NUMBER} IN (SELECT value FROM json_each(${numbers}))`));
  const stored = new Map(rows.map((row) => [Number(row.number), row as StoredDocument]));
  const lines =
    mode === 'upsert' && stored.size > 0
      ? await listLinesOf(
          unit.db,
          unit.scope,
          [...stored.values()].map((row) => row.id),
        )
      : [];
  const storedLines = new Map<string, RateLineRow[]>();
  for (const line of lines) storedLines.set(line.parentId, [...(storedLines.get(line.parentId) ?? []), line]);
  return {
    definitions: await loadCustomDefinitions(unit.db, unit.scope, exchangeRatesDocumentSpec.name),
    found: uses.length > 0 ? await findReferences(unit.db, unit.scope, uses) : new Map(),
    stored,
    storedLines,
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** A line's problems against stored data: unknown currencies; (upsert) a pair the document holds with other values. */
function judgeLine(item: RowLine, reads: ChunkReads, held: readonly RateLineRow[]): { errors: FieldError[]; unchanged: boolean } {
  const { line } = item;
  const errors: FieldError[] = [
    { key: line.fromCurrency, path: 'fromCurrency' },
    { key: line.toCurrency, path: 'toCurrency' },
  ]
    .filter((use) => !reads.found.get('currencies')?.has(use.key))
    .map((use) => ({ path: use.path, message: message('unknownReference', { kind: 'currencies', key: use.key }) }));
  const stored = held.find((row) => row.fromCurrency === line.fromCurrency && row.toCurrency === line.toCurrency);
  if (!stored || errors.length > 0) return { errors, unchanged: false };
  const same =
    stored.conversionFactor === line.conversionFactor &&
    stored.fromExchangeRateId === line.fromExchangeRateId &&
    stored.toExchangeRateId === line.toExchangeRateId &&
    sameValue(JSON.parse(stored.customAttributes ?? '{}') as unknown, line.custom);
  return same ? { errors, unchanged: true } : { errors: [{ path: 'toCurrency', message: message('pairExists') }], unchanged: false };
}

/** A stored document's columns the group's first row changes (every document field has its PUT), and their stored values. */
function diffDocument(stored: StoredDocument, group: DocumentGroup, custom: Readonly<Record<string, unknown>>) {
  const set: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(group.values)) {
    if (name === 'number' || sameValue(stored[name], value)) continue;
    set[name] = value;
    before[name] = stored[name] ?? null;
  }
  const current = JSON.parse(
    typeof stored.customAttributes === 'string' && stored.customAttributes !== '' ? stored.customAttributes : '{}',
  ) as object;
  const merged = { ...current, ...custom };
  if (!sameValue(current, merged)) {
    set.customAttributes = JSON.stringify(merged);
    before.customAttributes = stored.customAttributes ?? null;
  }
  return { set, before };
}

/** What a document group writes: a create, or an update and how many rows changed the stored document. */
interface PlannedGroup {
  readonly create?: DocumentCreate;
  readonly update?: DocumentUpdate;
  readonly rows: number;
}

/** One document group: refused rows, and its create or update (or nothing). */
function planGroup(context: ChunkContext, group: DocumentGroup, reads: ChunkReads, refused: RowRefusal[]): PlannedGroup | undefined {
  const stored = reads.stored.get(group.number);
  const custom = validateCustomValues(group.custom, reads.definitions, 'create');
  const taken = context.seenKeys.has(String(group.number)) || (stored !== undefined && context.mode === 'create');
  const documentErrors = [...custom.errors, ...(taken ? duplicateKey(exchangeRatesDocumentSpec, [group.number]).errors : [])];
  if (documentErrors.length > 0) {
    for (const row of group.rows) refused.push({ row, errors: documentErrors });
    return undefined;
  }
  const lines: RowLine[] = [];
  let passed = 0;
  for (const item of group.lines) {
    const judged = judgeLine(item, reads, stored ? (reads.storedLines.get(stored.id) ?? []) : []);
    if (judged.errors.length > 0) refused.push({ row: item.row, errors: judged.errors });
    else passed += 1;
    if (judged.errors.length === 0 && !judged.unchanged) lines.push(item);
  }
  context.seenKeys.add(String(group.number));
  if (!stored)
    return lines.length > 0
      ? { create: { id: crypto.randomUUID(), values: group.values, custom: custom.values, lines }, rows: 0 }
      : undefined;
  const { set, before } = diffDocument(stored, group, custom.values);
  if (lines.length === 0 && Object.keys(set).length === 0) return undefined;
  const update: DocumentUpdate = { id: stored.id, version: stored.version, set, before, lines };
  // Rows that changed the stored document: every row of its group when its columns changed, else those adding a line.
  return { update, rows: Object.keys(set).length > 0 ? passed : lines.length };
}

async function planDocumentsChunk(context: ChunkContext, rows: readonly ImportRowBody[]): Promise<PlannedChunk> {
  const refused: RowRefusal[] = [];
  const groups = groupDocumentRows(rows, refused);
  const reads = await readChunk(context.unit, groups, context.mode);
  const creates: DocumentCreate[] = [];
  const updates: DocumentUpdate[] = [];
  let updatedRows = 0;
  for (const group of groups) {
    const planned = planGroup(context, group, reads, refused);
    if (planned?.create) creates.push(planned.create);
    if (planned?.update) {
      updates.push(planned.update);
      updatedRows += planned.rows;
    }
  }
  const staged = stageDocumentWrites(context.unit, creates, updates);
  return {
    refused,
    created: creates.reduce((sum, create) => sum + create.lines.length, 0),
    updated: updatedRows,
    createdIds: creates.map((create) => create.id),
    changed: staged.changed,
    stage: staged.stage,
  };
}

export const documentsImportWriter: ImportWriter = {
  groupColumn: 'number',
  planChunk: planDocumentsChunk,
  planUndo: (unit, chunk, keepChanged) => planDocumentsUndo(unit, chunk, keepChanged),
  // As every write route of the service: no lookup is served from an entry cached before the write.
  afterCommit: async (platform, scope) => {
    await bumpRatesGeneration(platform, scope);
  },
};
