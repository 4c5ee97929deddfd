/**
 * GET /{id}/failures (the failed rows as CSV, from the chunk ledger) and POST /{id}/cancel (a Pending or Processing
 * import becomes Failed through its coordinator, then every chunk it wrote is undone).
 */
import { errorOfFields, recordNotFound, validationError } from '../../errors/api-error';
import type { ApiContext } from '../../http/context';
import { jsonResponse, textResponse } from '../../http/responses';
import { cancelDoc } from './docs';
import type { ImportTemplate } from '../../resources/entities/import-template';
import { message } from '../../messages/catalogue';
import { negotiateLanguage } from '../../messages/language';
import { isGuid } from '../../validation/values';
import { buildCommandBase, sendImportCommand } from './client';
import { streamFailuresCsv } from './failures-stream';
import { isProcessed, sumChunkCounts, undoChunks } from './ledger';
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

/** Cancels a Pending or Processing import: Failed, then what it wrote is undone (its processing stops at its next step). */
export async function handleCancel(ctx: ApiContext, templates: readonly ImportTemplate[]) {
  const row = await readImportParam(ctx);
  const counts = await sumChunkCounts(ctx.tenant, row.id);
  const outcome = await sendImportCommand(ctx, {
    ...buildCommandBase(ctx),
    type: 'imports.progress',
    progress: { importId: row.id, importDataState: FAILED, counts, detailLog: 'Cancelled: nothing left written.' },
  });
  if (outcome.status === 'notFound') throw recordNotFound(`Import ${row.id}`, true, 'id');
  if (outcome.status === 'stopped') {
    const from = isImportState(row.importDataState) ? describeState(row.importDataState) : String(row.importDataState);
    throw errorOfFields('InvalidStateTransition', [
      { path: 'importDataState', message: message('stateTransition', { from, to: describeState(FAILED) }) },
    ]);
  }
  const template = templates.find((item) => item.name === row.importDataTemplate);
  if (isProcessed(template)) await undoChunks(ctx.tenant, template, row.id, { platform: ctx.platform });
  const current = await findImport(ctx.tenant, row.id);
  return jsonResponse(cancelDoc.responses[200].schema, toImportResource(current ?? row));
}
