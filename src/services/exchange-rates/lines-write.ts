/**
 * Guarded line writes: the line statement and the document's version bump run in one batch, both only while
 * the document still has the version read just before. Every line change bumps the document's version (its
 * ETag covers its lines), so "nothing written" always means "the document changed meanwhile".
 */
import { isUniqueViolation } from '../../db/client';
import type { Database } from '../../db/client';
import { runWrites } from '../../db/writes';
import type { WriteStatement } from '../../db/writes';
import { stampOf } from '../../entities/handlers';
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
   * Reads what the write needs (e.g. the line) and answers the guarded line statement, wrapped in an object:
   * a drizzle query is thenable, so returning it bare from an async function would run it.
   */
  (db: Database, document: DocumentRef, stamp: AuditStamp): Promise<{ statement: WriteStatement }>;
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

async function readDocumentOrFail(db: Database, ctx: ApiContext, number: number, listed404: boolean): Promise<DocumentRef> {
  const document = await readDocumentRef(db, ctx.scope, number);
  if (!document) throw recordNotFound(`${exchangeRatesDocumentSpec.title} ${number}`, listed404);
  return document;
}

function preconditionFailed(version: number): ApiError {
  return new ApiError('PreconditionFailed', `If-Match does not match the current version ${version}.`, {
    headers: { etag: etagOf(version) },
  });
}

/** Runs one line write; answers the document's new version. */
export async function writeLine(ctx: ApiContext, number: number, listed404: boolean, plan: LineWritePlan): Promise<number> {
  const db = ctx.db;
  const expected = readIfMatch(ctx.request);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const document = await readDocumentOrFail(db, ctx, number, listed404);
    if (expected !== undefined && expected !== document.version) throw preconditionFailed(document.version);
    const stamp = stampOf(ctx);
    const { statement } = await plan(db, document, stamp);
    let written: unknown[];
    let bumped: { version: unknown }[];
    try {
      [written, bumped] = await runWrites(db, [statement, bumpDocument(db, document, stamp)]);
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
    // The document changed between the read and the batch: nothing was written.
    if (expected !== undefined) throw preconditionFailed((await readDocumentOrFail(db, ctx, number, listed404)).version);
  }
  throw new ApiError('PreconditionFailed', 'The document kept changing during the write; retry.');
}
