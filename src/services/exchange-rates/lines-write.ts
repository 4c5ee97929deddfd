/**
 * Line writes: the line statement and the document's version bump run in one batch. Every line change bumps the
 * document's version (its ETag covers its lines); a write that changes nothing bumps nothing. With `If-Match`,
 * both statements are guarded by that version (412 when it moved); without, they only need the document to exist,
 * so concurrent writes of different lines never refuse each other.
 */
import type { BatchItem } from 'drizzle-orm/batch';
import { isUniqueViolation, readDatabase } from '../../db/client';
import type { Database } from '../../db/client';
import { stampOf, scopeOf } from '../../entities/handlers';
import { readIfMatch } from '../../entities/lookup';
import type { AuditStamp } from '../../entities/repository';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound, validationError } from '../../http/errors';
import { etagOf } from '../../http/responses';
import { exchangeRatesDocumentSpec } from './entity';
import { bumpDocument, readDocumentRef } from './lines-store';
import type { DocumentRef } from './lines-store';

const ATTEMPTS = 3;

export interface LineWritePlan {
  /**
   * Reads what the write needs (e.g. the line) and answers the guarded line statement, wrapped in an object
   * (a drizzle query is thenable, so returning it bare from an async function would run it), or `unchanged`
   * when the line already is as asked.
   */
  (db: Database, document: DocumentRef, stamp: AuditStamp): Promise<{ statement: BatchItem<'sqlite'> } | { unchanged: true }>;
}

function isCheckViolation(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : String(error);
  return /CHECK constraint failed/i.test(text);
}

export function readDocumentNumber(raw: string | undefined): number {
  const text = raw ?? '';
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw validationError([{ path: 'number', message: `number must be an integer, got '${text}'.` }]);
  }
  return value;
}

async function readDocumentOrFail(db: Database, ctx: ApiContext, number: number, listed404: boolean): Promise<Required<DocumentRef>> {
  const document = await readDocumentRef(db, scopeOf(ctx), number);
  if (!document) throw recordNotFound(`${exchangeRatesDocumentSpec.title} ${number}`, listed404, 'number');
  return document;
}

function preconditionFailed(version: number): ApiError {
  return new ApiError('PreconditionFailed', `If-Match does not match the current version ${version}.`, {
    headers: { etag: etagOf(version) },
  });
}

/** Runs one line write; answers the document's new version. */
export async function writeLine(ctx: ApiContext, number: number, listed404: boolean, plan: LineWritePlan): Promise<number> {
  const db = readDatabase(ctx.platform.db);
  const expected = readIfMatch(ctx.request);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const document = await readDocumentOrFail(db, ctx, number, listed404);
    if (expected !== undefined && expected !== document.version) throw preconditionFailed(document.version);
    const guard: DocumentRef = expected === undefined ? { id: document.id } : document;
    const stamp = stampOf(ctx);
    const planned = await plan(db, guard, stamp);
    if ('unchanged' in planned) return document.version;
    const { statement } = planned;
    let written: unknown[];
    let bumped: { version: number }[];
    try {
      [written, bumped] = (await db.batch([statement, bumpDocument(db, guard, stamp)])) as [unknown[], { version: number }[]];
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError('DuplicateKey', 'The document already has a line for this (fromCurrency, toCurrency) pair.', {
          errors: [
            { path: 'fromCurrency', message: 'pair already exists' },
            { path: 'toCurrency', message: 'pair already exists' },
          ],
        });
      }
      if (isCheckViolation(error)) throw validationError([{ path: 'toCurrency', message: 'toCurrency must differ from fromCurrency' }]);
      throw error;
    }
    const version = bumped[0]?.version;
    if (written.length > 0 && version !== undefined) return Number(version);
    // Nothing written: with If-Match, the document moved on meanwhile; without, the document or the line changed
    // meanwhile (gone, or already as asked): the next attempt reads them again.
    if (expected !== undefined) throw preconditionFailed((await readDocumentOrFail(db, ctx, number, listed404)).version);
  }
  throw new ApiError('PreconditionFailed', 'The document kept changing during the write; retry.');
}
