/**
 * `$batch` on a service root of the tenant/org: today's `/api/{tenantKey}/{orgKey}/$batch` (src/services/batch/routes.ts)
 * and the standard OData root's `/odata/{tenantKey}/{orgKey}/$batch` (`handleBatch(ctx, 'odata')`). Both formats: the
 * OData 4.01 JSON batch (parse.ts) and the OData 4.0 multipart batch (multipart-parse.ts), read into one plan that one
 * engine checks, runs (execute.ts) and bounds; answered in the format it was sent in.
 */
import { validationError } from '../../errors/api-error';
import { readJsonBody, readLimitedText } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { alternativeResponse, jsonResponse } from '../../http/responses';
import { message } from '../../messages/catalogue';
import { negotiateLanguage } from '../../messages/language';
import { runGroupWrite } from '../../tenant/session';
import { toJsonResponses } from './answer';
import type { BatchResponse } from './answer';
import { openAnswerBudget } from './answer-budget';
import { BATCH_ANSWER } from './docs';
import { executeBatch } from './execute';
import { writeMultipartAnswer } from './multipart-answer';
import { isMultipartMixed, parseMultipartBatch } from './multipart-parse';
import { checkEntries, parseBatch } from './parse';
import type { BatchPlan } from './parse';
import type { BatchRoot, BatchTarget } from './target';

const ISOLATION_HEADER = 'isolation';

/** `Isolation: snapshot` (the whole batch one atomic group), or none. */
function readIsolation(request: Request): boolean {
  const value = request.headers.get(ISOLATION_HEADER);
  if (value === null) return false;
  if (value.trim().toLowerCase() === 'snapshot') return true;
  throw validationError([{ path: 'Isolation', message: message('batchIsolation', { field: 'Isolation' }) }]);
}

/** Runs a checked plan with the batch's token, language, bookmark and session. */
function runPlan(ctx: ApiContext, plan: BatchPlan, root: BatchRoot): Promise<BatchResponse[]> {
  const headers = ctx.request.headers;
  const { tenantKey, orgKey } = ctx.tenant.scope;
  const address = `${encodeURIComponent(tenantKey)}/${encodeURIComponent(orgKey)}`;
  return executeBatch(plan, {
    roots: { api: `${ctx.url.origin}/api/${address}`, odata: `${ctx.url.origin}/odata/${address}` },
    root,
    requestId: ctx.requestId,
    authorization: headers.get('authorization'),
    acceptLanguage: headers.get('accept-language'),
    bookmark: headers.get('x-d1-bookmark'),
    language: negotiateLanguage(headers.get('accept-language')),
    budget: openAnswerBudget(),
    dispatch: (request, group) => ctx.dispatch(request, group ? { group } : undefined),
    // An atomic group's writes commit on the batch's own tenant session (its read session, its D1 round trips).
    commitGroup: (group) => group.commit((statements) => runGroupWrite(ctx.tenant, statements)),
    findGroupRefusal: (group) => group.findRefusal((statements) => runGroupWrite(ctx.tenant, statements)),
    readBookmark: () => ctx.readBookmark(),
  });
}

/** The batch answer's own headers: `no-store` when an inner answer must not be kept (a new secret); OData's version. */
function answerHeaders(responses: readonly BatchResponse[], odata: boolean): Record<string, string> {
  const noStore = responses.some((response) => /\bno-store\b/i.test(response.headers['cache-control'] ?? ''));
  return { ...(noStore ? { 'cache-control': 'no-store' } : {}), ...(odata ? { 'odata-version': '4.0' } : {}) };
}

/** A multipart batch: read, checked as a JSON one (parts named `parts[i]`, `parts[i].parts[j]`), answered as multipart. */
async function handleMultipart(ctx: ApiContext, target: BatchTarget, snapshot: boolean) {
  const read = parseMultipartBatch(await readLimitedText(ctx.request), ctx.request.headers.get('content-type') ?? '');
  if ('errors' in read) throw validationError(read.errors);
  const parsed = checkEntries(read.entries, target, snapshot, {
    authorization: ctx.request.headers.get('authorization'),
    optionalIds: true,
    pathOf: (index) => read.paths[index] ?? `parts[${index}]`,
  });
  if ('errors' in parsed) throw validationError(parsed.errors);
  const responses = await runPlan(ctx, parsed.plan, target.root ?? 'api');
  const contentIds = read.entries.map((entry) => (typeof entry.id === 'string' ? entry.id : undefined));
  const boundary = `batchresponse_${crypto.randomUUID()}`;
  const boundaries = { batch: boundary, changeset: () => `changesetresponse_${crypto.randomUUID()}` };
  const body = writeMultipartAnswer(read.layout, responses, contentIds, boundaries);
  return alternativeResponse(BATCH_ANSWER, body, `multipart/mixed; boundary=${boundary}`, answerHeaders(responses, true));
}

/** `POST {root}/$batch`: `root` is the service root it was sent to (relative urls of its requests resolve against it). */
export async function handleBatch(ctx: ApiContext, root: BatchRoot) {
  const snapshot = readIsolation(ctx.request);
  const target: BatchTarget = { origin: ctx.url.origin, ...ctx.tenant.scope, root };
  if (isMultipartMixed(ctx.request.headers.get('content-type'))) return handleMultipart(ctx, target, snapshot);
  const body = await readJsonBody(ctx.request);
  const parsed = parseBatch(body, target, snapshot, { authorization: ctx.request.headers.get('authorization') });
  if ('errors' in parsed) throw validationError(parsed.errors);
  const responses = await runPlan(ctx, parsed.plan, root);
  return jsonResponse(BATCH_ANSWER, { responses: toJsonResponses(responses) }, { headers: answerHeaders(responses, root === 'odata') });
}
