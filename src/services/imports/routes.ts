/** Import data info: custom operations, every state change through the coordinator. */
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { errorOfFields, recordNotFound, validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { createdResponse, emptyResponse, jsonResponse } from '../../http/responses';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { isGuid } from '../../validation/values';
import { buildCommandBase, sendImportCommand } from './client';
import {
  cancelDoc,
  changeDoc,
  failuresDoc,
  lastImportsDoc,
  readImportDoc,
  registerDoc,
  revertDoc,
  uploadDoc,
  validateStateDoc,
} from './docs';
import type { ImportTemplate } from '../../resources/entities/import-template';
import { handleUpload } from './upload';
import { handleCancel, handleFailures } from './runs';
import { toImportResource } from './resource';
import { describeState, isStaleProcessing, ReturnMessageType } from './states';
import { findImport, listLastImports } from './store';
import { isProcessed } from './ledger';
import { describeRevert, describeRevertStarted } from './revert-message';
import { parseChangeBody, parseGuidParam, parseLastImportsQuery, parseRegisterBody, parseRevertInput } from './validate';
import { message } from '../../messages/catalogue';

const IMPORTS_BASE = '/corePatterns/importDataInfos';
const tags = ['Import data info'];

async function handleRegister(ctx: ApiContext) {
  const input = parseRegisterBody(await readJsonBody(ctx.request));
  const outcome = await sendImportCommand(ctx, {
    ...buildCommandBase(ctx),
    type: 'imports.register',
    import: { id: crypto.randomUUID(), ...input },
  });
  return createdResponse(outcome.id, `${ctx.apiBase}${IMPORTS_BASE}/${outcome.id}`);
}

async function handleChange(ctx: ApiContext) {
  const input = parseChangeBody(await readJsonBody(ctx.request));
  const mismatches: FieldError[] = [];
  if (input.tenant !== null && input.tenant !== ctx.tenant.scope.tenantKey) {
    mismatches.push({
      path: 'tenant',
      message: message('pathMismatch', { field: 'tenant', segment: 'tenantKey', value: ctx.tenant.scope.tenantKey }),
    });
  }
  if (input.subscription !== null && input.subscription !== ctx.tenant.scope.orgKey) {
    mismatches.push({
      path: 'subscription',
      message: message('pathMismatch', { field: 'subscription', segment: 'orgKey', value: ctx.tenant.scope.orgKey }),
    });
  }
  if (mismatches.length > 0) throw validationError(mismatches);
  const outcome = await sendImportCommand(ctx, { ...buildCommandBase(ctx), type: 'imports.change', change: input.change });
  if (outcome.status === 'notFound') throw recordNotFound(`Import ${input.change.importId}`, true, 'importId');
  if (outcome.status === 'fileNameFixed') {
    const value = outcome.cloudFileName ?? '(none)';
    throw validationError([{ path: 'cloudFileName', message: message('importFileNameFixed', { field: 'cloudFileName', value }) }]);
  }
  if (outcome.status === 'refused') {
    throw errorOfFields('InvalidStateTransition', [
      {
        path: 'importDataState',
        message: message('stateTransition', { from: describeState(outcome.from), to: describeState(outcome.to) }),
      },
    ]);
  }
  return emptyResponse(200);
}

async function handleValidateState(ctx: ApiContext) {
  const id = parseGuidParam(ctx.url.searchParams, 'id');
  const now = ctx.platform.now();
  const row = await findImport(ctx.tenant, id);
  if (!row) throw recordNotFound(`Import ${id}`, false, 'id');
  if (!isStaleProcessing(row, now)) return jsonResponse(validateStateDoc.responses[200].schema, toImportResource(row));
  const outcome = await sendImportCommand(ctx, { ...buildCommandBase(ctx), type: 'imports.expire', importId: id, now: now.toISOString() });
  if (outcome.status === 'notFound') throw recordNotFound(`Import ${id}`, false, 'id');
  return jsonResponse(validateStateDoc.responses[200].schema, toImportResource(outcome.row));
}

async function handleLastImports(ctx: ApiContext) {
  const query = parseLastImportsQuery(ctx.url.searchParams);
  const rows = await listLastImports(ctx.tenant, query.templateId, query.top);
  return jsonResponse(lastImportsDoc.responses[200].schema, rows.map(toImportResource));
}

/**
 * Reverts the template's latest succeeded import. The coordinator marks it reverted, so a second revert finds the next
 * older import (or nothing). A file import's writes are undone by a durable run of its own
 * (src/services/imports/revert-steps.ts): the answer says so at once, and where to watch; its outcome (records deleted,
 * restored, and those changed since, left and named) is then the import's revertResult.
 */
async function handleRevert(ctx: ApiContext, templates: readonly ImportTemplate[]) {
  const templateKey = parseRevertInput(await readJsonBody(ctx.request, { optional: true }), ctx.url.searchParams);
  const undoFiles = isProcessed(templates.find((item) => item.name === templateKey));
  const outcome = await sendImportCommand(ctx, { ...buildCommandBase(ctx), type: 'imports.revert', templateKey, undoFiles });
  if (outcome.status === 'nothing') {
    return jsonResponse(revertDoc.responses[200].schema, {
      revertedTypeMessage: ReturnMessageType.members.Warning,
      message: `Template '${templateKey}' has no succeeded import left to revert.`,
    });
  }
  const row = { key: outcome.key, originalFileName: outcome.originalFileName, importDataTemplate: templateKey };
  if (!outcome.undo) return jsonResponse(revertDoc.responses[200].schema, describeRevert(row));
  await startRevert(ctx, outcome.id);
  return jsonResponse(revertDoc.responses[200].schema, describeRevertStarted(row, `${ctx.apiBase}${IMPORTS_BASE}/${outcome.id}`));
}

/** Starts the revert's run; one that cannot be started is taken back (the import is a revert candidate again). */
async function startRevert(ctx: ApiContext, importId: string): Promise<void> {
  try {
    const { tenantKey, orgKey } = ctx.tenant.scope;
    await ctx.platform.imports.start({ tenantKey, orgKey, importId, by: ctx.principal.subject, task: 'revert' });
  } catch (error) {
    const undo = { importId, undoState: null, rowsUndone: null, reverted: false };
    await sendImportCommand(ctx, { ...buildCommandBase(ctx), type: 'imports.undo', undo });
    throw error;
  }
}

async function handleReadOne(ctx: ApiContext) {
  const id = ctx.params.id ?? '';
  if (!isGuid(id)) throw validationError([{ path: 'id', message: message('mustBeGuid', { field: 'id' }) }]);
  const row = await findImport(ctx.tenant, id.toLowerCase());
  if (!row) throw recordNotFound(`Import ${id}`, true, 'id');
  return jsonResponse(readImportDoc.responses[200].schema, toImportResource(row));
}

const validateRoute = defineApiRoute({
  method: 'GET',
  path: `${IMPORTS_BASE}/validateImportDataState`,
  scope: 'application',
  doc: {
    summary: 'Read an import, first marking a Processing import without progress for 30 minutes as Fatal',
    tags,
    operationId: 'validateImportDataState',
    ...validateStateDoc,
  },
  handle: handleValidateState,
});

const lastImportsRoute = defineApiRoute({
  method: 'GET',
  path: `${IMPORTS_BASE}/getLastImports`,
  scope: 'application',
  doc: {
    summary: "A template's imports, newest first (top: default 10, at most 100)",
    tags,
    operationId: 'getLastImports',
    ...lastImportsDoc,
  },
  handle: handleLastImports,
});

const changeRoute = defineApiRoute({
  method: 'POST',
  path: `${IMPORTS_BASE}/changeDataImport`,
  scope: 'application',
  doc: { summary: "Change an import's state and details", tags, operationId: 'changeDataImport', ...changeDoc },
  handle: handleChange,
});

const registerRoute = defineApiRoute({
  method: 'POST',
  path: IMPORTS_BASE,
  scope: 'application',
  doc: {
    summary: 'Register an import (extension): 201, state Pending, next key of the tenant/org',
    tags,
    operationId: 'registerImportDataInfo',
    ...registerDoc,
  },
  handle: handleRegister,
});

const failuresRoute = defineApiRoute({
  method: 'GET',
  path: `${IMPORTS_BASE}/:id/failures`,
  scope: 'application',
  doc: {
    summary: "A file import's failed rows as CSV (row, column, message, the row's values)",
    tags,
    operationId: 'readImportFailures',
    ...failuresDoc,
  },
  handle: handleFailures,
});

const readRoute = defineApiRoute({
  method: 'GET',
  path: `${IMPORTS_BASE}/:id`,
  scope: 'application',
  doc: {
    summary: 'Read one import by id (extension; the Location of a registration)',
    tags,
    operationId: 'readImportDataInfo',
    ...readImportDoc,
  },
  handle: handleReadOne,
});

/** Literal paths before `/:id`; the file operations take the import templates. */
export function buildImportRoutes(templates: readonly ImportTemplate[]): readonly ApiRoute[] {
  const uploadRoute = defineApiRoute({
    method: 'POST',
    path: `${IMPORTS_BASE}/files`,
    scope: 'application',
    doc: {
      summary: `Import a file: stored, then processed row by row (templates: ${templates.map((template) => template.name).join(', ')})`,
      tags,
      operationId: 'uploadImportFile',
      ...uploadDoc,
    },
    streamsBody: true,
    handle: (ctx) => handleUpload(ctx, templates),
  });
  const revertRoute = defineApiRoute({
    method: 'POST',
    path: `${IMPORTS_BASE}/revertImportFile`,
    scope: 'application',
    doc: {
      summary: "Revert the template's latest succeeded, not yet reverted import",
      tags,
      operationId: 'revertImportFile',
      ...revertDoc,
    },
    handle: (ctx) => handleRevert(ctx, templates),
  });
  const cancelRoute = defineApiRoute({
    method: 'POST',
    path: `${IMPORTS_BASE}/:id/cancel`,
    scope: 'application',
    doc: {
      summary: 'Cancel a Pending or Processing file import: Failed, and what it wrote is undone',
      tags,
      operationId: 'cancelImport',
      ...cancelDoc,
    },
    handle: (ctx) => handleCancel(ctx),
  });
  return [uploadRoute, validateRoute, lastImportsRoute, changeRoute, revertRoute, registerRoute, failuresRoute, cancelRoute, readRoute];
}
