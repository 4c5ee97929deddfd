/**
 * Runs a checked `$batch` plan: its requests in order, each through the application's own pipeline (`dispatch`: the
 * same router, token checks, rate limits, validation and handlers as a request sent alone), with the batch's token
 * and language, and each reading at least what the ones before it wrote (their `x-d1-bookmark`, chained).
 * `dependsOn` on a failed request (or group), or a `$<id>` of one, answers 424 without running.
 */
import { ApiError, problemResponse, validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { Language } from '../../messages/language';
import { findRecordIdentifier, readBatchResponse } from './answer';
import type { BatchResponse } from './answer';
import type { BatchPlan, BatchRequest } from './parse';
import { substituteBody, substitutePath } from './references';

/** What the batch hands to every inner request. */
export interface BatchRun {
  /** Absolute `{origin}/api/{tenantKey}/{orgKey}`. */
  readonly apiBase: string;
  readonly requestId: string;
  readonly authorization: string | null;
  readonly acceptLanguage: string | null;
  /** The batch's own `x-d1-bookmark`, if sent: the first inner request reads at least that fresh. */
  readonly bookmark: string | null;
  readonly language: Language;
  /** One request through the application's pipeline (src/http/app.ts). */
  dispatch(request: Request): Promise<Response>;
}

interface Outcome {
  readonly ok: boolean;
  readonly identifier?: string;
  readonly location?: string;
}

/** What the requests run so far left behind. */
interface BatchState {
  readonly outcomes: Map<string, Outcome>;
  readonly groups: Map<string, string[]>;
  bookmark: string | null;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

function isFailed(name: string, state: BatchState): boolean {
  const members = state.groups.get(name);
  if (members) return members.some((member) => state.outcomes.get(member)?.ok !== true);
  return state.outcomes.get(name)?.ok !== true;
}

function fieldOf(request: BatchRequest, name: string): string {
  if (request.dependsOn.includes(name)) return 'dependsOn';
  return request.url.base === name || !request.body ? 'url' : 'body';
}

/** 424 for a failed dependency, 400 for a `$<id>` of a request that created nothing; undefined when it can run. */
function checkDependencies(request: BatchRequest, state: BatchState): ApiError | undefined {
  const failed = [...new Set([...request.dependsOn, ...request.references])].filter((name) => isFailed(name, state));
  const path = (name: string) => `requests[${request.index}].${fieldOf(request, name)}`;
  if (failed.length > 0) {
    const errors: FieldError[] = failed.map((name) => ({
      path: path(name),
      message: message('batchFailedDependency', { id: request.id, field: path(name), name }),
    }));
    return new ApiError('FailedDependency', `Request ${request.id} depends on ${failed.join(', ')}, which failed; it was not run.`, {
      errors,
    });
  }
  const empty = request.references.filter((name) => state.outcomes.get(name)?.identifier === undefined);
  if (empty.length === 0) return undefined;
  return validationError(
    empty.map((name) => ({ path: path(name), message: message('batchNoIdentifier', { id: request.id, field: path(name), name }) })),
  );
}

function buildIdentifiers(request: BatchRequest, state: BatchState): Map<string, string> {
  return new Map(request.references.map((name) => [name, state.outcomes.get(name)?.identifier ?? '']));
}

/** The inner request's absolute URL; undefined when a substitution led it out of the batch's tenant/org. */
function buildUrl(request: BatchRequest, state: BatchState, run: BatchRun): string | undefined {
  const rest = substitutePath(request.url.rest, buildIdentifiers(request, state));
  const base = request.url.base === undefined ? `${run.apiBase}/` : (state.outcomes.get(request.url.base)?.location ?? '');
  const url = `${base}${rest}`;
  const api = new URL(run.apiBase);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.origin === api.origin && parsed.pathname.startsWith(`${api.pathname}/`) ? url : undefined;
}

function buildHeaders(request: BatchRequest, state: BatchState, run: BatchRun): Headers {
  const headers = new Headers(request.headers);
  if (run.authorization !== null) headers.set('authorization', run.authorization);
  if (run.acceptLanguage !== null && !headers.has('accept-language')) headers.set('accept-language', run.acceptLanguage);
  if (state.bookmark !== null) headers.set('x-d1-bookmark', state.bookmark);
  const innerId = `${run.requestId}:${request.id}`;
  if (REQUEST_ID_PATTERN.test(innerId)) headers.set('x-request-id', innerId);
  if (request.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return headers;
}

function buildBody(request: BatchRequest, state: BatchState): string | undefined {
  if (!request.body) return undefined;
  if (!request.body.json) return String(request.body.value);
  return JSON.stringify(substituteBody(request.body.value, buildIdentifiers(request, state)));
}

async function answerRefusal(request: BatchRequest, error: ApiError, run: BatchRun): Promise<BatchResponse> {
  const path = request.url.base === undefined ? `/${request.url.rest}` : `/$${request.url.base}${request.url.rest}`;
  const instance = `${new URL(run.apiBase).pathname}${path.split('?')[0] ?? ''}`;
  return readBatchResponse(request.id, problemResponse(error, instance, run.requestId, run.language), request.atomicityGroup);
}

async function runRequest(request: BatchRequest, state: BatchState, run: BatchRun): Promise<BatchResponse> {
  const refusal = checkDependencies(request, state);
  if (refusal) return answerRefusal(request, refusal, run);
  const url = buildUrl(request, state, run);
  if (url === undefined) {
    const path = `requests[${request.index}].url`;
    return answerRefusal(request, validationError([{ path, message: message('batchOtherScope', { id: request.id, field: path }) }]), run);
  }
  const body = buildBody(request, state);
  const inner = new Request(url, {
    method: request.method,
    headers: buildHeaders(request, state, run),
    ...(body === undefined ? {} : { body }),
  });
  const response = await run.dispatch(inner);
  const bookmark = response.headers.get('x-d1-bookmark');
  if (bookmark !== null) state.bookmark = bookmark;
  return readBatchResponse(request.id, response, request.atomicityGroup);
}

function recordOutcome(request: BatchRequest, response: BatchResponse, state: BatchState): void {
  const identifier = findRecordIdentifier(response);
  const location = response.headers.location;
  const ok = response.status < 400;
  state.outcomes.set(request.id, {
    ok,
    ...(identifier === undefined ? {} : { identifier }),
    ...(location === undefined ? {} : { location }),
  });
  if (request.atomicityGroup !== undefined) {
    const members = state.groups.get(request.atomicityGroup) ?? [];
    members.push(request.id);
    state.groups.set(request.atomicityGroup, members);
  }
}

/**
 * Every request of the plan, in order, one answer each. Requests without an `atomicityGroup` run and commit one by
 * one, exactly as if sent alone; atomic groups are refused before this runs (src/services/batch/routes.ts) until a
 * group can share one unit of work committed as one D1 batch.
 */
export async function executeBatch(plan: BatchPlan, run: BatchRun): Promise<BatchResponse[]> {
  const state: BatchState = { outcomes: new Map(), groups: new Map(), bookmark: run.bookmark };
  const responses: BatchResponse[] = [];
  for (const request of plan.requests) {
    const response = await runRequest(request, state, run);
    recordOutcome(request, response, state);
    responses.push(response);
  }
  return responses;
}
