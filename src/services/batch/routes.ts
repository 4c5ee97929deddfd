/** `POST /api/{tenantKey}/{orgKey}/$batch`: many operations in one request (src/services/batch/parse.ts, execute.ts). */
import { validationError } from '../../errors/api-error';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { jsonResponse } from '../../http/responses';
import { message } from '../../messages/catalogue';
import { negotiateLanguage } from '../../messages/language';
import { openAnswerBudget } from './answer-budget';
import { BATCH_ANSWER, batchDoc } from './docs';
import { executeBatch } from './execute';
import { parseBatch } from './parse';

const BATCH_PATH = '/$batch';
const ISOLATION_HEADER = 'isolation';

/** `Isolation: snapshot` (the whole batch one atomic group), or none. */
function readIsolation(request: Request): boolean {
  const value = request.headers.get(ISOLATION_HEADER);
  if (value === null) return false;
  if (value.trim().toLowerCase() === 'snapshot') return true;
  throw validationError([{ path: 'Isolation', message: message('batchIsolation', { field: 'Isolation' }) }]);
}

async function handleBatch(ctx: ApiContext) {
  const snapshot = readIsolation(ctx.request);
  const body = await readJsonBody(ctx.request);
  const parsed = parseBatch(body, { origin: ctx.url.origin, ...ctx.scope }, snapshot);
  if ('errors' in parsed) throw validationError(parsed.errors);
  const headers = ctx.request.headers;
  const responses = await executeBatch(parsed.plan, {
    apiBase: ctx.apiBase,
    requestId: ctx.requestId,
    authorization: headers.get('authorization'),
    acceptLanguage: headers.get('accept-language'),
    bookmark: headers.get('x-d1-bookmark'),
    language: negotiateLanguage(headers.get('accept-language')),
    budget: openAnswerBudget(),
    dispatch: (request, group) => ctx.dispatch(request, group ? { group } : undefined),
    // An atomic group's writes commit on the batch's own tenant database (its session, its D1 round trips).
    commitGroup: (group) => group.commit(ctx.db),
    findGroupRefusal: (group) => group.findRefusal(ctx.db),
    readBookmark: () => ctx.readBookmark(),
  });
  // An inner answer that must not be kept (a new client secret, a webhook secret) makes the whole answer so.
  const noStore = responses.some((response) => /\bno-store\b/i.test(response.headers['cache-control'] ?? ''));
  return jsonResponse(BATCH_ANSWER, { responses }, noStore ? { headers: { 'cache-control': 'no-store' } } : {});
}

export const batchRoutes: readonly ApiRoute[] = [
  defineApiRoute({ method: 'POST', path: BATCH_PATH, scope: 'application', doc: batchDoc, handle: handleBatch }),
];
