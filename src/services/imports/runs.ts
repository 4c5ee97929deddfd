/**
 * GET /{id}/failures (the failed rows as CSV, from the chunk ledger) and POST /{id}/cancel (a Pending or Processing
 * import becomes Failed through its coordinator; its run then undoes every chunk it wrote, in steps).
 */
import { errorOfFields, recordNotFound, validationError } from '../../errors/api-error';
import type { ApiContext } from '../../http/context';
import { jsonResponse, textResponse } from '../../http/responses';
import { cancelDoc } from './docs';
import { message } from '../../messages/catalogue';
import { negotiateLanguage } from '../../messages/language';
import { isGuid } from '../../validation/values';
import { buildCommandBase, sendImportCommand } from './client';
import { streamFailuresCsv } from './failures-stream';
import { sumChunkCounts } from './ledger';
import { toImportResource } from './resource';
import { describeState, FAILED, isImportState } from './states';
import { findImport } from './store';
import type { ImportRow } from './table';

async function readImportParam(ctx: ApiContext): Promise<ImportRow> {
  const id = ctx.params.id ?? '';
  if (!isGuid(id)) throw validationError([{ path: 'id', message: message('mustBeGuid', { field: 'id' }) }]);
  const row = await findImport(ctx.tenant, id.toLowerCase());
  if (!row) throw recordNotFound(`Import ${id}`, true, 'id');
  return row;
}

/** The failed rows of a file import, one CSV line per problem (an import without failures: the header line only), streamed. */
export async function handleFailures(ctx: ApiContext) {
  const row = await readImportParam(ctx);
  const language = negotiateLanguage(ctx.request.headers.get('accept-language'));
  const body = await streamFailuresCsv(ctx.tenant, row.id, language);
  return textResponse(body, 'text/csv', { 'content-disposition': `attachment; filename="import-${row.key}-failures.csv"` });
}

/** detailLog of a cancelled import while its run undoes what it wrote, and once it has. */
export const CANCELLING_LOG = 'Cancelled: what it wrote is being undone (undoState 1, rowsUndone).';
export const CANCELLED_LOG = 'Cancelled: nothing left written.';

/**
 * Cancels a Pending or Processing import: Failed at once. A Processing file import's run stops at its next step and
 * undoes what it wrote in steps of its own (undoState 1, then 2 with detailLog CANCELLED_LOG); a Pending one wrote
 * nothing.
 */
export async function handleCancel(ctx: ApiContext) {
  const row = await readImportParam(ctx);
  const counts = await sumChunkCounts(ctx.tenant, row.id);
  const outcome = await sendImportCommand(ctx, {
    ...buildCommandBase(ctx),
    type: 'imports.progress',
    progress: { importId: row.id, importDataState: FAILED, counts, detailLog: CANCELLED_LOG, cancel: { undoingLog: CANCELLING_LOG } },
  });
  if (outcome.status === 'notFound') throw recordNotFound(`Import ${row.id}`, true, 'id');
  if (outcome.status === 'stopped') {
    const from = isImportState(row.importDataState) ? describeState(row.importDataState) : String(row.importDataState);
    throw errorOfFields('InvalidStateTransition', [
      { path: 'importDataState', message: message('stateTransition', { from, to: describeState(FAILED) }) },
    ]);
  }
  return jsonResponse(cancelDoc.responses[200].schema, toImportResource(outcome.row ?? row));
}
