/**
 * Line writes: the line statement and the document's version bump staged as one write of the request's unit of work
 * (src/tenant/unit-of-work.ts), committed as one batch with the document's `updated` event. Every line change bumps the
 * document's version (its ETag covers its lines); a write that changes nothing bumps nothing. With `If-Match`,
 * both statements are guarded by that version (412 when it moved); without, they only need the document to exist,
 * so concurrent writes of different lines never refuse each other.
 */
import { and, eq, sql } from 'drizzle-orm';
import { parseConstraintViolation } from '../../db/client';
import { updatedEventOf } from '../../resources/entities/events';
import { findThroughGroup, recordAtVersion } from '../../resources/entities/group-reads';
import { parseIfMatch, parseIntegerSegment } from '../../resources/entities/lookup';
import type { AuditStamp } from '../../resources/entities/store';
import type { ApiContext } from '../../http/context';
import { bindRequestQuery } from '../../tenant/compiled';
import { commitAlone, rowsOf } from '../../tenant/unit-of-work';
import type { TenantSession } from '../../tenant/session';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { ApiError, recordNotFound, validationError } from '../../errors/api-error';
import { etagOf } from '../../http/responses';
import { exchangeRatesDocumentSpec } from './entity';
import { LINES_PROPERTY } from './lines-input';
import { buildDocumentBump, findDocumentRef } from './lines-store';
import { exchangeRatesDocumentStore, exchangeRateLines } from './table';
import type { DocumentRef } from './lines-store';
import { message } from '../../messages/catalogue';
import { recordLineEffect } from './group-lines';
import type { LineEffect } from './group-lines';

const ATTEMPTS = 3;

interface LineWritePlan {
  /**
   * Reads what the write needs (e.g. the line) and answers the guarded line statement, wrapped in an object
   * (a drizzle query is thenable, so returning it bare from an async function would run it), with the line as it
   * leaves it (for an atomic group's later writes and reads), or `unchanged` when the line already is as asked.
   */
  (document: DocumentRef, stamp: AuditStamp): Promise<{ statement: LineStatement; effect: LineEffect } | { unchanged: true }>;
}

/** A line's insert, update or delete that returns the line's id when it changed it (lines-store.ts). */
interface LineStatement {
  toSQL(): { sql: string; params: unknown[] };
}

/** The `{number}` path segment: an integer document number. */
export function parseDocumentNumber(raw: string | undefined): number {
  return parseIntegerSegment('number', raw ?? '');
}

/** The document's id and version; in an atomic group as the group's earlier writes leave it. */
async function findDocument(unit: TenantSession, number: number): Promise<Required<DocumentRef> | undefined> {
  if (!unit.group) return findDocumentRef(unit, number);
  const lookup = { by: 'key', values: [number] } as const;
  const record = await findThroughGroup(unit, exchangeRatesDocumentStore, unit.group.overlay, lookup);
  return record ? { id: record.id, version: record.version } : undefined;
}

async function findDocumentOrFail(
  ctx: ApiContext,
  unit: TenantSession,
  number: number,
  listed404: boolean,
): Promise<Required<DocumentRef>> {
  const document = await findDocument(unit, number);
  if (!document) throw recordNotFound(`${exchangeRatesDocumentSpec.title} ${number}`, listed404, 'number');
  return document;
}

function preconditionFailed(version: number): ApiError {
  return new ApiError('PreconditionFailed', `If-Match does not match the current version ${version}.`, {
    headers: { etag: etagOf(version) },
  });
}

/** The line statement, the document's bump and its `updated` event, as one staged write: its rows written and bumped. */
function stageLineWrite(
  statement: LineStatement,
  guard: DocumentRef,
  effect: LineEffect,
): StagedWrite<{ written: number; version: number | undefined }> {
  return {
    // In an atomic group: the document as the group sees it, bumped; checked in the group's batch at that version
    // before (its lines are as read: every line change bumps it) and at the next one after (the line was written);
    // the line as written goes in the group's overlay (group-lines.ts).
    async predict(context) {
      const store = exchangeRatesDocumentStore;
      const current = await findThroughGroup(context, store, context.overlay, { by: 'id', id: guard.id });
      if (!current) return { result: { written: 0, version: undefined } };
      const version = current.version + 1;
      const { stamp, scope } = context;
      context.overlay.write(store.spec.table, current.id, { ...current, version, modifiedOn: stamp.on, modifiedBy: stamp.by });
      recordLineEffect(context.overlay, effect);
      return {
        result: { written: 1, version },
        before: [recordAtVersion(store, scope, current.id, current.version)],
        after: [recordAtVersion(store, scope, current.id, version)],
      };
    },
    plan({ scope, stamp }) {
      const line = bindRequestQuery(statement, { id: exchangeRateLines.id });
      const bump = bindRequestQuery(buildDocumentBump(scope, guard, stamp), { version: exchangeRatesDocumentStore.common.version });
      // The document's `updated` event follows its bump, written only when the bump was (changes() is the bump's).
      const condition = and(eq(exchangeRatesDocumentStore.common.id, guard.id), sql`changes() > 0`);
      const event = updatedEventOf(exchangeRatesDocumentStore, condition, { changes: { attributes: [LINES_PROPERTY] }, afterUpdate: true });
      return {
        table: 'exchange_rate_lines',
        statements: [{ statement: line }, { statement: bump }, { event }],
        settle: ([written, bumped]) => ({ written: rowsOf(line, written).length, version: rowsOf(bump, bumped)[0]?.version }),
        explain: explainLineError,
      };
    },
  };
}

/** A refused line write: the currency pair exists (409) or the currencies are the same (400). */
function explainLineError(error: unknown): ApiError | undefined {
  const violation = parseConstraintViolation(error);
  if (violation === 'unique') {
    const exists = message('pairExists');
    return new ApiError('DuplicateKey', exists, {
      errors: [
        { path: 'fromCurrency', message: exists },
        { path: 'toCurrency', message: exists },
      ],
    });
  }
  if (violation === 'check') return validationError([{ path: 'toCurrency', message: message('currenciesDiffer') }]);
  return undefined;
}

/** Runs one line write in the request's session; answers the document's new version. */
export async function writeLine(ctx: ApiContext, number: number, listed404: boolean, plan: LineWritePlan): Promise<number> {
  const expected = parseIfMatch(ctx.request);
  const unit = ctx.tenant;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const document = await findDocumentOrFail(ctx, unit, number, listed404);
    if (expected !== undefined && expected !== document.version) throw preconditionFailed(document.version);
    const guard: DocumentRef = expected === undefined ? { id: document.id } : document;
    const planned = await plan(guard, unit.stamp);
    if ('unchanged' in planned) return document.version;
    const { written, version } = await commitAlone(unit, (batch) => batch.stage(stageLineWrite(planned.statement, guard, planned.effect)));
    if (written > 0 && version !== undefined) return version;
    // Nothing written: with If-Match, the document moved on meanwhile; without, the document or the line changed
    // meanwhile (gone, or already as asked): the next attempt reads them again.
    if (expected !== undefined) throw preconditionFailed((await findDocumentOrFail(ctx, unit, number, listed404)).version);
  }
  throw new ApiError('PreconditionFailed', 'The document kept changing during the write; retry.');
}
