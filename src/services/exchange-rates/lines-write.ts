/**
 * Line writes: the line statement and the document's version bump run in one batch. Every line change bumps the
 * document's version (its ETag covers its lines); a write that changes nothing bumps nothing. With `If-Match`,
 * both statements are guarded by that version (412 when it moved); without, they only need the document to exist,
 * so concurrent writes of different lines never refuse each other.
 */
import { and, eq, sql } from 'drizzle-orm';
import { parseConstraintViolation } from '../../db/client';
import type { Database } from '../../db/client';
import { runWrites } from '../../db/writes';
import type { WriteStatement } from '../../db/writes';
import { buildUpdatedEvent } from '../../entities/events';
import { buildAuditStamp } from '../../entities/handlers';
import { parseIfMatch, parseIntegerSegment } from '../../entities/lookup';
import type { AuditStamp } from '../../entities/store';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound, validationError } from '../../errors/api-error';
import { etagOf } from '../../http/responses';
import { exchangeRatesDocumentSpec } from './entity';
import { LINES_PROPERTY } from './lines-input';
import { buildDocumentBump, findDocumentRef } from './lines-store';
import { exchangeRatesDocumentStore } from './table';
import type { DocumentRef } from './lines-store';
import { message } from '../../messages/catalogue';

const ATTEMPTS = 3;

export interface LineWritePlan {
  /**
   * Reads what the write needs (e.g. the line) and answers the guarded line statement, wrapped in an object
   * (a drizzle query is thenable, so returning it bare from an async function would run it), or `unchanged`
   * when the line already is as asked.
   */
  (db: Database, document: DocumentRef, stamp: AuditStamp): Promise<{ statement: WriteStatement } | { unchanged: true }>;
}

/** The `{number}` path segment: an integer document number. */
export function parseDocumentNumber(raw: string | undefined): number {
  return parseIntegerSegment('number', raw ?? '');
}

async function findDocumentOrFail(ctx: ApiContext, number: number, listed404: boolean): Promise<Required<DocumentRef>> {
  const document = await findDocumentRef(ctx.db, ctx.scope, number);
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
  const { db, scope } = ctx;
  const expected = parseIfMatch(ctx.request);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const document = await findDocumentOrFail(ctx, number, listed404);
    if (expected !== undefined && expected !== document.version) throw preconditionFailed(document.version);
    const guard: DocumentRef = expected === undefined ? { id: document.id } : document;
    const stamp = buildAuditStamp(ctx);
    const planned = await plan(db, guard, stamp);
    if ('unchanged' in planned) return document.version;
    const { statement } = planned;
    let written: readonly unknown[];
    let bumped: readonly { version: number }[];
    try {
      // The document's `updated` event follows its bump, written only when the bump was (changes() is the bump's).
      const condition = and(eq(exchangeRatesDocumentStore.common.id, guard.id), sql`changes() > 0`);
      const event = buildUpdatedEvent(db, exchangeRatesDocumentStore, scope, condition, stamp, {
        changes: { attributes: [LINES_PROPERTY] },
        afterUpdate: true,
      });
      [written, bumped] = await runWrites(db, [statement, buildDocumentBump(db, scope, guard, stamp), event]);
    } catch (error) {
      const violation = parseConstraintViolation(error);
      if (violation === 'unique') {
        const exists = message('pairExists');
        throw new ApiError('DuplicateKey', exists, {
          errors: [
            { path: 'fromCurrency', message: exists },
            { path: 'toCurrency', message: exists },
          ],
        });
      }
      if (violation === 'check') throw validationError([{ path: 'toCurrency', message: message('currenciesDiffer') }]);
      throw error;
    }
    const version = bumped[0]?.version;
    if (written.length > 0 && version !== undefined) return version;
    // Nothing written: with If-Match, the document moved on meanwhile; without, the document or the line changed
    // meanwhile (gone, or already as asked): the next attempt reads them again.
    if (expected !== undefined) throw preconditionFailed((await findDocumentOrFail(ctx, number, listed404)).version);
  }
  throw new ApiError('PreconditionFailed', 'The document kept changing during the write; retry.');
}
