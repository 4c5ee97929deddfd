/**
 * POST /corePatterns/importDataInfos/files: the file streamed to storage (never held whole), its header row checked on
 * the first bytes, then the import registered Pending through the tenant/org's coordinator.
 */
import { ApiError, validationError } from '../../errors/api-error';
import { discardRest } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { jsonResponse } from '../../http/responses';
import { uploadDoc } from './docs';
import { bindHeader } from '../../resources/entities/import-template';
import type { ImportTemplate } from '../../resources/entities/import-template';
import { message } from '../../messages/catalogue';
import type { MessageKey } from '../../messages/catalogue';
import type { StoredFile } from '../../runtime/platform';
import { buildCommandBase, sendImportCommand } from './client';
import { buildImportFileKey } from './files/file-key';
import { detectFormat, readFileHeader } from './files/format';
import type { FileFormat } from './files/format';
import { MAX_HEAD_BYTES, MAX_IMPORT_FILE_BYTES } from './files/limits';
import { FileProblem } from './files/problem';
import { prependChunks } from './files/streams';
import { scanUpload } from './files/upload-scan';
import { parseFileName, parseUploadOptions } from './files/upload-input';
import { toImportResource } from './resource';

function tooLarge(): ApiError {
  return new ApiError('PayloadTooLarge', message('importFileTooLarge', { max: MAX_IMPORT_FILE_BYTES }));
}

/**
 * The body's bytes as a stream that remembers what it read in `seen` (so the same bytes can be stored afterwards) and
 * stops past MAX_HEAD_BYTES; cancelling it leaves `reader` open. `settle` stops it reading (the header parser's pipes
 * read ahead, and their cancel reaches this stream only after a few turns: a read they start after the header was
 * found would take bytes from the reader that `seen`, already stored, never gets) and waits for a read still in
 * flight, so that `seen` holds every byte taken from the reader.
 */
function recordHead(reader: ReadableStreamDefaultReader<Uint8Array>, seen: Uint8Array[]) {
  let total = 0;
  let stopped = false;
  let pending: Promise<unknown> = Promise.resolve();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stopped) {
        controller.close();
        return;
      }
      if (total > MAX_HEAD_BYTES) {
        controller.error(new FileProblem('importHeaderTooLong', { max: MAX_HEAD_BYTES }));
        return;
      }
      const read = reader.read().then((result) => {
        if (!result.done) {
          seen.push(result.value);
          total += result.value.byteLength;
        }
        return result;
      });
      pending = read;
      const { done, value } = await read;
      try {
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        // cancelled meanwhile: the bytes are in `seen`
      }
    },
  });
  return {
    stream,
    settle: () => {
      stopped = true;
      return pending;
    },
  };
}

/** Bounds of rows and records (src/services/imports/files/limits.ts) seen at upload: 413 naming `file` and the bound. */
const UPLOAD_BOUNDS: readonly MessageKey[] = ['importTooManyRows', 'importRecordTooLong', 'importRowTooWide'];

function refuseFile(problem: FileProblem): ApiError {
  const errors = [{ path: 'file', message: problem.problem }];
  return UPLOAD_BOUNDS.includes(problem.problem.key)
    ? new ApiError('PayloadTooLarge', problem.problem, { errors })
    : validationError(errors);
}

/**
 * Streams the file (`head`, then the rest of `reader`) to storage, its bounds checked on the way: past one, nothing is
 * kept, and the rest of the body is read and dropped (bounded, as src/http/body.ts does) before the 413, so the
 * connection it came on is left clean.
 */
async function storeFile(
  ctx: ApiContext,
  key: string,
  format: FileFormat,
  head: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<StoredFile> {
  // The pipe's failure cancels its source, not the request body: its rest is drained below.
  const source = prependChunks(head, { read: () => reader.read(), cancel: async () => undefined });
  try {
    const stored = await ctx.platform.files.put(key, source.pipeThrough(scanUpload(format)), { maxBytes: MAX_IMPORT_FILE_BYTES });
    if ('tooLarge' in stored) await reader.cancel().catch(() => undefined);
    return stored;
  } catch (error) {
    if (!(error instanceof FileProblem)) throw error;
    await discardRest(reader, 0).catch(() => undefined);
    throw refuseFile(error);
  }
}

/** The header row must bind to the template (400 naming every bad column), read from the first bytes of the body. */
async function checkHead(
  format: FileFormat,
  template: ImportTemplate,
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<Uint8Array[]> {
  const seen: Uint8Array[] = [];
  const head = recordHead(reader, seen);
  let header: readonly string[];
  try {
    header = await readFileHeader(format, async () => head.stream);
  } catch (error) {
    if (error instanceof FileProblem) throw refuseFile(error);
    throw error;
  } finally {
    await head.settle().catch(() => undefined);
  }
  const { errors } = bindHeader(template, header);
  if (errors.length > 0) throw validationError(errors);
  return seen;
}

export async function handleUpload(ctx: ApiContext, templates: readonly ImportTemplate[]) {
  const options = parseUploadOptions(ctx.url.searchParams, templates);
  const originalFileName = parseFileName(ctx.request.headers.get('content-disposition'));
  const contentType = ctx.request.headers.get('content-type');
  const format = detectFormat(contentType, originalFileName);
  if (!format) throw new ApiError('UnsupportedMediaType', message('importMediaType', { value: contentType ?? '(none)' }));
  const declared = ctx.request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_IMPORT_FILE_BYTES) throw tooLarge();
  if (!ctx.request.body) throw validationError([{ path: 'file', message: message('importFileEmpty') }]);
  const reader = ctx.request.body.getReader();
  // An .xlsx header is inside the zip (the sheet may come last): it is checked when the import starts.
  const head = format === 'xlsx' ? [] : await checkHead(format, options.template, reader);
  const id = crypto.randomUUID();
  const cloudFileName = buildImportFileKey({ ...ctx.tenant.scope, importId: id });
  const stored = await storeFile(ctx, cloudFileName, format, head, reader);
  if ('tooLarge' in stored) throw tooLarge();
  const outcome = await sendImportCommand(ctx, {
    ...buildCommandBase(ctx),
    type: 'imports.register',
    import: {
      id,
      importDataTemplate: options.template.name,
      originalFileName,
      importName: originalFileName,
      cloudFileName,
      file: { format, mode: options.mode, dryRun: options.dryRun, failOnErrors: options.failOnErrors },
    },
  });
  await ctx.platform.imports.start({
    tenantKey: ctx.tenant.scope.tenantKey,
    orgKey: ctx.tenant.scope.orgKey,
    importId: id,
    by: ctx.principal.subject,
  });
  return jsonResponse(uploadDoc.responses[202].schema, toImportResource(outcome.row), {
    status: 202,
    headers: { location: `${ctx.apiBase}/corePatterns/importDataInfos/${id}` },
  });
}
