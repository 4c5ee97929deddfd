/**
 * One step of a file import's processing: up to SLICE_CHUNKS chunks of CHUNK_ROWS records, each checked and written
 * through the unit of work as ONE D1 batch with its ledger row. A step starts after the last chunk in the ledger, so a
 * step cut short and run again writes nothing twice; a CSV file is read from that chunk's end offset (one ranged read:
 * no record is parsed twice), the other formats read past the records before it.
 */
import type { ImportTemplate } from '../../entities/import-template';
import { loadCustomDefinitions } from '../../entities/custom-attributes';
import { formatMessage } from '../../messages/catalogue';
import { DEFAULT_LANGUAGE } from '../../messages/language';
import type { ImportJob, Platform } from '../../platform/types';
import { stageChunkCreates, stageLedgerEntry, stageRecordUpdate } from './chunk-stage';
import { checkEntityChunk } from './chunk-writes';
import type { ChunkSetting } from './chunk-writes';
import { readFileRecords } from './files/format';
import type { UpdatedRecord } from './ledger-entry';
import { stageRecordMembers } from './member-stage';
import type { PlannedUpdate } from './upsert';
import type { WriteBatch } from '../../tenant/unit-of-work';
import type { FileFormat, FileRecord, ResumePoint } from './files/format';
import { FileProblem, toFileProblem } from './files/problem';
import { findLastChunk, sumChunkCounts } from './ledger';
import { describeCounts, openJob, sendProgress } from './progress';
import { PROCESSING } from './states';

/** Rows per chunk: one D1 batch each (every statement takes the chunk's rows as one JSON parameter). */
const CHUNK_ROWS = 500;
/** Chunks per step: a step reports progress when it ends (a few seconds at most). */
const SLICE_CHUNKS = 20;

export interface SliceResult extends Readonly<Record<string, unknown>> {
  readonly done: boolean;
  /** Why the import cannot go on (becomes Fatal). */
  readonly fatal: string | null;
}

/** The file's records after `from` (CSV: from its offset; otherwise the first `from.skip` records are read past). */
async function* readRecordsAfter(
  platform: Platform,
  format: FileFormat,
  key: string,
  from: (ResumePoint & { readonly skip: number }) | undefined,
): AsyncGenerator<FileRecord> {
  const open = async (offset: number) => {
    const stream = await platform.files.read(key, offset);
    if (!stream) throw new FileProblem('importFileEmpty');
    return stream;
  };
  let index = 0;
  for await (const item of readFileRecords(format, open, from)) {
    if ('header' in item) continue;
    if (from && from.offset < 0 && index < from.skip) index += 1;
    else yield item;
  }
}

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

/** The next CHUNK_ROWS records (fewer at the end of the file). */
async function takeChunk(records: AsyncGenerator<FileRecord>): Promise<FileRecord[]> {
  const chunk: FileRecord[] = [];
  while (chunk.length < CHUNK_ROWS) {
    const next = await records.next();
    if (next.done) break;
    chunk.push(next.value);
  }
  return chunk;
}

/** csv-parse's and the JSON parser's errors (a malformed file), as opposed to a failure of the platform. */
function isParserError(error: unknown): boolean {
  return error instanceof Error && ('code' in error ? String(error.code).startsWith('CSV_') : false);
}

/** Why a template's files cannot be processed, or undefined. */
function refuseTemplate(name: string, template: ImportTemplate | undefined): string | undefined {
  if (!template?.store) return `Processing files of template '${name}' is not built yet.`;
  return undefined;
}

export async function runSlice(platform: Platform, templates: readonly ImportTemplate[], job: ImportJob): Promise<SliceResult> {
  const { unit, row, template } = await openJob(platform, templates, job);
  if (!row || row.importDataState !== PROCESSING) return { done: true, fatal: null };
  const refused = refuseTemplate(row.importDataTemplate, template);
  if (refused !== undefined || !template?.store) return { done: true, fatal: refused ?? null };
  const store = template.store;
  const format = (row.fileFormat ?? 'csv') as FileFormat;
  const setting: ChunkSetting = {
    unit,
    template,
    store,
    fromText: format === 'csv' || format === 'xlsx',
    mode: row.importMode === 'upsert' ? 'upsert' : 'create',
    definitions: store.spec.customAttributes ? await loadCustomDefinitions(unit.db, job, store.spec.name) : [],
    seenKeys: new Set(),
  };
  const last = await findLastChunk(unit.db, job, job.importId);
  let index = last ? last.chunkIndex + 1 : 0;
  const from = last ? { offset: last.endOffset, row: last.endRow, skip: index * CHUNK_ROWS } : undefined;
  const records = readRecordsAfter(platform, format, row.cloudFileName ?? '', from);
  try {
    for (let taken = 0; taken < SLICE_CHUNKS; taken += 1) {
      const chunk = await takeChunk(records);
      if (chunk.length > 0) await writeChunk(setting, { importId: job.importId, index, dryRun: row.dryRun === true }, chunk);
      index += 1;
      if (chunk.length < CHUNK_ROWS) return { done: true, fatal: null };
    }
  } catch (error) {
    // A malformed file is the import's end (Fatal, with why); anything else (the platform) fails the step, retried.
    if (error instanceof FileProblem || error instanceof SyntaxError || isParserError(error)) {
      return { done: true, fatal: formatMessage(toFileProblem(error, format).problem, DEFAULT_LANGUAGE) };
    }
    throw error;
  } finally {
    await records.return(undefined);
  }
  const counts = await sumChunkCounts(unit.db, job, job.importId);
  await sendProgress(platform, job, { importId: job.importId, counts, detailLog: describeCounts(counts, row.dryRun === true) });
  return { done: false, fatal: null };
}
