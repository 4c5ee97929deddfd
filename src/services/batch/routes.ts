/** `POST /api/{tenantKey}/{orgKey}/$batch`: many operations in one request (src/services/batch/parse.ts, execute.ts). */
import { validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { jsonResponse } from '../../http/responses';
import { message } from '../../messages/catalogue';
import { negotiateLanguage } from '../../messages/language';
import { BATCH_ANSWER, batchDoc } from './docs';
import { executeBatch } from './execute';
import { parseBatch } from './parse';
import type { BatchPlan } from './parse';

export const BATCH_PATH = '/$batch';
const ISOLATION_HEADER = 'isolation';

/** `Isolation: snapshot` (the whole batch one atomic group), or none. */
function readIsolation(request: Request): boolean {
  const value = request.headers.get(ISOLATION_HEADER);
  if (value === null) return false;
  if (value.trim().toLowerCase() === 'snapshot') return true;
  throw validationError([{ path: 'Isolation', message: message('batchIsolation', { field: 'Isolation' }) }]);
}

/**
 * Atomic groups need a unit of work whose writes commit as one D1 batch; until the executor has one, a batch asking
 * for atomicity is refused whole (never run without it).
 */
function refuseAtomicGroups(plan: BatchPlan): void {
  const errors: FieldError[] = plan.requests
    .filter((request) => request.atomicityGroup !== undefined)
    .map((request) => {
      const field = `requests[${request.index}].atomicityGroup`;
      return { path: field, message: message('batchGroupsUnsupported', { id: request.id, field }) };
    });
  if (plan.snapshot) {
    const first = plan.requests[0]?.id ?? '#1';
    errors.unshift({ path: 'Isolation', message: message('batchGroupsUnsupported', { id: first, field: 'Isolation' }) });
  }
  if (errors.length > 0)
    throw validationError(errors, 'Atomic groups (atomicityGroup, Isolation: snapshot) are not supported yet; nothing was run.');
}

async function handleBatch(ctx: ApiContext) {
  const snapshot = readIsolation(ctx.request);
  const body = await readJsonBody(ctx.request);
  const parsed = parseBatch(body, { origin: ctx.url.origin, ...ctx.scope }, snapshot);
  if ('errors' in parsed) throw validationError(parsed.errors);
  refuseAtomicGroups(parsed.plan);
  const headers = ctx.request.headers;
  const responses = await executeBatch(parsed.plan, {
    apiBase: ctx.apiBase,
    requestId: ctx.requestId,
    authorization: headers.get('authorization'),
    acceptLanguage: headers.get('accept-language'),
    bookmark: headers.get('x-d1-bookmark'),
    language: negotiateLanguage(headers.get('accept-language')),
    dispatch: (request) => ctx.dispatch(request),
  });
  return jsonResponse(BATCH_ANSWER, { responses });
}

export const batchRoutes: readonly ApiRoute[] = [
  defineApiRoute({ method: 'POST', path: BATCH_PATH, scope: 'application', doc: batchDoc, handle: handleBatch }),
];
