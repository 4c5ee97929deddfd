/**
 * One step of a file import's processing: up to SLICE_CHUNKS chunks of CHUNK_ROWS records, each checked and written
 * through the unit of work as ONE D1 batch with its ledger row. A step starts after the last chunk in the ledger, so a
 * step cut short and run again writes nothing twice; the file is read from that chunk's end offset (one ranged read: no
 * record is parsed twice): CSV, NDJSON and JSON directly, .xlsx through the CSV of its sheet (src/services/imports/sources.ts).
 */
import type { ImportTemplate } from '../../resources/entities/import-template';
import { loadCustomDefinitions } from '../../resources/entities/custom-attributes';
import { formatMessage } from '../../messages/catalogue';
import { DEFAULT_LANGUAGE } from '../../messages/language';
import type { ImportJob, Platform } from '../../runtime/platform';
import { yieldToRequests } from '../../db/yield';
import { stageChunkCreates, stageLedgerEntry, stageRecordUpdate } from './chunk-stage';
import { checkEntityChunk } from './chunk-writes';
import type { ChunkSetting } from './chunk-writes';
import type { UpdatedRecord } from './ledger-entry';
import { stageRecordMembers } from './member-stage';
import type { PlannedUpdate } from './upsert';
import type { TenantReader, TenantSession } from '../../tenant/session';
import type { WriteBatch } from '../../tenant/unit-of-work';
import { ChunkReader, readRecordsAfter } from './chunk-reader';
import type { FileFormat, FileRecord } from './files/format';
import { FileProblem, toFileProblem } from './files/problem';
import { describeTooBig, isTooBig } from './step-failures';
import { findLastChunk, isProcessed, sumChunkCounts } from './ledger';
import type { ImportRow } from './table';
import { prepareSource } from './sources';
import { writeWriterChunk } from './writer-chunk';
import type { WriterSetting } from './writer-chunk';
import { describeCounts, openJob, sendProgress } from './progress';
import { PROCESSING } from './states';

/** Chunks per step at most; a step also stops taking chunks after SLICE_MS, and reports progress when it ends. */
const SLICE_CHUNKS = 20;
/** A step's time for chunks: progress is told every few seconds, and a step stays short. */
const SLICE_MS = 2_500;

export interface SliceResult extends Readonly<Record<string, unknown>> {
  readonly done: boolean;
  /** Why the import cannot go on (becomes Fatal). */
  readonly fatal: string | null;
}

/** Writes one chunk of records (the template's way). */
type ChunkWrite = (chunk: { importId: string; index: number; dryRun: boolean }, records: FileRecord[]) => Promise<void>;

/**
 * Checks one chunk and writes it through the unit of work: its creates (one statement, with their events), its updates
 * (upsert) and its ledger row staged in one batch, committed as ONE D1 batch (a dry run writes the ledger row only).
 */
async function writeChunk(setting: ChunkSetting, chunk: { importId: string; index: number; dryRun: boolean }, records: FileRecord[]) {
  const checked = await checkEntityChunk(setting, records);
  const creates = chunk.dryRun ? [] : checked.creates;
  const updates = chunk.dryRun ? [] : checked.updates;
  const batch = setting.unit.openBatch();
  if (creates.length > 0) batch.stage(stageChunkCreates(setting.template, setting.store, creates));
  const updated = updates.map((update) => stageUpsert(batch, setting, update));
  const last = records.at(-1);
  batch.stage(
    stageLedgerEntry({
      importId: chunk.importId,
      chunkIndex: chunk.index,
      counts: { rowsRead: records.length, rowsCreated: creates.length, rowsUpdated: updates.length, rowsFailed: checked.failures.length },
      createdIds: creates.map((item) => item.id),
      updated,
      failures: checked.failures,
      endOffset: last?.end ?? -1,
      endRow: last?.row ?? 0,
      on: setting.unit.stamp.on,
    }),
  );
  await batch.commit();
}

/**
 * Stages an upsert of a stored record: its attributes (the entity's update), then the members it adds (at the version
 * that update leaves, and only if it was written); answers what the ledger keeps of it.
 */
function stageUpsert(batch: WriteBatch, setting: ChunkSetting, update: PlannedUpdate): UpdatedRecord {
  const changes = Object.keys(update.set).length > 0;
  if (changes) batch.stage(stageRecordUpdate(setting.store, update));
  const version = update.expectedVersion + (changes ? 1 : 0);
  if (update.members.length === 0) return { id: update.id, version, before: update.before };
  const members = { id: update.id, expectedVersion: version, members: update.members, action: 'added' as const, stamped: changes };
  batch.stage(stageRecordMembers(setting.template, setting.store, members));
  return { id: update.id, version: version + 1, before: update.before, members: update.members };
}

/** csv-parse's and the JSON parser's errors (a malformed file), as opposed to a failure of the platform. */
function isParserError(error: unknown): boolean {
  return error instanceof Error && ('code' in error ? String(error.code).startsWith('CSV_') : false);
}

/** Why a template's files cannot be processed, or undefined. */
function refuseTemplate(name: string, template: ImportTemplate | undefined): string | undefined {
  if (!isProcessed(template)) return `Processing files of template '${name}' is not built yet.`;
  return undefined;
}

/** How the import's chunks are written: by the template's writer, or as its entity's creates (and upserts). */
async function prepareChunkWrite(
  platform: Platform,
  unit: TenantSession,
  template: ImportTemplate,
  row: ImportRow,
): Promise<ChunkWrite | undefined> {
  const format = (row.fileFormat ?? 'csv') as FileFormat;
  const fromText = format === 'csv' || format === 'xlsx';
  const mode = row.importMode === 'upsert' ? 'upsert' : 'create';
  if (template.writer) {
    const setting: WriterSetting = { platform, template, writer: template.writer, fromText, context: { unit, mode, seenKeys: new Set() } };
    return (chunk, records) => writeWriterChunk(setting, chunk, records);
  }
  const store = template.store;
  if (!store) return undefined;
  const setting: ChunkSetting = {
    unit,
    template,
    store,
    fromText,
    mode,
    definitions: store.spec.customAttributes ? await loadCustomDefinitions(unit, store.spec.name) : [],
    seenKeys: new Set(),
  };
  return (chunk, records) => writeChunk(setting, chunk, records);
}

/** Where the import's records go on: after the last chunk in the ledger (CSV: its end offset; else past the records read). */
async function findResumePoint(unit: TenantReader, job: ImportJob) {
  const last = await findLastChunk(unit, job.importId);
  if (!last) return { index: 0, from: undefined };
  const skip = last.endOffset >= 0 ? 0 : (await sumChunkCounts(unit, job.importId)).rowsRead;
  return { index: last.chunkIndex + 1, from: { offset: last.endOffset, row: last.endRow, skip } };
}

export async function runSlice(platform: Platform, templates: readonly ImportTemplate[], job: ImportJob): Promise<SliceResult> {
  const { unit, row, template } = await openJob(platform, templates, job);
  if (!row || row.importDataState !== PROCESSING) return { done: true, fatal: null };
  const refused = refuseTemplate(row.importDataTemplate, template);
  const write = refused === undefined && template ? await prepareChunkWrite(platform, unit, template, row) : undefined;
  if (!write || !template) return { done: true, fatal: refused ?? null };
  const format = (row.fileFormat ?? 'csv') as FileFormat;
  const resume = await findResumePoint(unit, job);
  let index = resume.index;
  const started = Date.now();
  let reader: ChunkReader | undefined;
  try {
    const source = await prepareSource(platform, format, { job, named: row.cloudFileName });
    reader = new ChunkReader(readRecordsAfter(platform, source.format, source.key, resume.from), template.writer?.groupColumn);
    for (let taken = 0; taken < SLICE_CHUNKS && Date.now() - started < SLICE_MS; taken += 1) {
      // The runtime's turn before each chunk (src/db/yield.ts): requests that came meanwhile are answered.
      await yieldToRequests();
      const chunk = await reader.take();
      await yieldToRequests();
      if (chunk.records.length > 0) await write({ importId: job.importId, index, dryRun: row.dryRun === true }, chunk.records);
      index += 1;
      if (chunk.last) return { done: true, fatal: null };
    }
  } catch (error) {
    // A malformed file, a bound passed or a chunk D1 cannot store is the import's end (Fatal, with why: never retried);
    // anything else (the platform, the storage mid-read: a SourceError) fails the step, which runs again from the ledger.
    const problem =
      error instanceof FileProblem || error instanceof SyntaxError || isParserError(error) ? toFileProblem(error, format) : error;
    if (problem instanceof FileProblem) return { done: true, fatal: formatMessage(problem.problem, DEFAULT_LANGUAGE) };
    if (isTooBig(error)) return { done: true, fatal: describeTooBig(error) };
    throw error;
  } finally {
    await reader?.close();
  }
  const counts = await sumChunkCounts(unit, job.importId);
  await sendProgress(platform, job, { importId: job.importId, counts, detailLog: describeCounts(counts, row.dryRun === true) });
  return { done: false, fatal: null };
}
