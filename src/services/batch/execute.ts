/**
 * Runs a checked `$batch` plan: its requests in order, each through the application's own pipeline (`dispatch`: the
 * same router, token checks, rate limits, validation and handlers as a request sent alone), with the batch's token
 * and language, and each reading at least what the ones before it wrote (their `x-d1-bookmark`, chained).
 * `dependsOn` on a failed request (or group), or a `$<id>` of one, answers 424 without running.
 *
 * The requests of an atomic group (`atomicityGroup`; every request with `Isolation: snapshot`) run as members of one
 * `AtomicGroup` (src/tenant/atomic-group.ts): their units of work stage into it and their answers are held; once the
 * last one answered, the group's writes commit as one D1 batch and the answers are released. When one fails (its own
 * answer, or the refused commit attributed to it) it answers its own error, the others 424, and nothing is written.
 */
import { ApiError, problemResponse, validationError } from '../../errors/api-error';
import { openAtomicGroup } from '../../tenant/atomic-group';
import type { AtomicGroup, GroupFailure, GroupMember } from '../../tenant/atomic-group';
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { Language } from '../../messages/language';
import { findRecordIdentifier, readBatchResponse, readInnerResponse } from './answer';
import { refuseOverflow } from './answer-budget';
import type { AnswerBudget } from './answer-budget';
import type { BatchResponse } from './answer';
import type { BatchPlan, BatchRequest } from './parse';
import { refuseInGroup } from './group-refusal';
import { substituteBody, substitutePath } from './references';
import { findUnderRoots } from './target';
import type { BatchRoot } from './target';

/** What the batch hands to every inner request. */
interface BatchRun {
  /** The tenant/org's service roots, absolute (`{origin}/api/{tenantKey}/{orgKey}`, `{origin}/odata/...`), without `/`. */
  readonly roots: Readonly<Record<BatchRoot, string>>;
  /** The root the batch was sent to (its relative urls resolve against it). */
  readonly root: BatchRoot;
  readonly requestId: string;
  readonly authorization: string | null;
  readonly acceptLanguage: string | null;
  /** The batch's own `x-d1-bookmark`, if sent: the first inner request reads at least that fresh. */
  readonly bookmark: string | null;
  readonly language: Language;
  /** What the inner answers' bodies may still hold (src/services/batch/answer-budget.ts). */
  readonly budget: AnswerBudget;
  /** One request through the application's pipeline (src/http/app.ts); with `group`, as a member of that group. */
  dispatch(request: Request, group?: GroupMember): Promise<Response>;
  /** Commits an atomic group's writes as one D1 batch on the batch's tenant database. */
  commitGroup(group: AtomicGroup): Promise<GroupFailure | undefined>;
  /** After a member failed: the earlier member whose staged writes the database refuses, if any (AtomicGroup.findRefusal). */
  findGroupRefusal(group: AtomicGroup): Promise<GroupFailure | undefined>;
  /** The batch's read session's bookmark (after a group committed: the ones after it read at least that). */
  readBookmark(): string | null;
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
  const path = (name: string) => `${request.path}.${fieldOf(request, name)}`;
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

/** The root a request's url is under: the batch's own, or the other one its absolute path named. */
function rootOf(request: BatchRequest, run: BatchRun): string {
  return run.roots[request.url.root ?? run.root];
}

/** The inner request's absolute URL; undefined when a substitution led it out of the batch's tenant/org. */
function buildUrl(request: BatchRequest, state: BatchState, run: BatchRun): string | undefined {
  const rest = substitutePath(request.url.rest, buildIdentifiers(request, state));
  const base = request.url.base === undefined ? `${rootOf(request, run)}/` : (state.outcomes.get(request.url.base)?.location ?? '');
  return findUnderRoots(`${base}${rest}`, Object.values(run.roots));
}

function buildHeaders(request: BatchRequest, state: BatchState, run: BatchRun): Headers {
  const headers = new Headers(request.headers);
  if (run.authorization !== null) headers.set('authorization', run.authorization);
  if (run.acceptLanguage !== null && !headers.has('accept-language')) headers.set('accept-language', run.acceptLanguage);
  if (state.bookmark !== null) headers.set('x-d1-bookmark', state.bookmark);
  // A multipart part without Content-ID (`#<n>`): its position.
  const innerId = `${run.requestId}:${request.id.replace(/^#/, '')}`;
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
  const instance = `${new URL(rootOf(request, run)).pathname}${path.split('?')[0] ?? ''}`;
  return readBatchResponse(request.id, problemResponse(error, instance, run.requestId, run.language), request.atomicityGroup);
}

async function runRequest(request: BatchRequest, state: BatchState, run: BatchRun, member?: GroupMember): Promise<BatchResponse> {
  if (request.refusal) return answerRefusal(request, validationError([request.refusal]), run);
  const refusal = checkDependencies(request, state);
  if (refusal) return answerRefusal(request, refusal, run);
  const url = buildUrl(request, state, run);
  if (url === undefined) {
    const path = `${request.path}.url`;
    return answerRefusal(request, validationError([{ path, message: message('batchOtherScope', { id: request.id, field: path }) }]), run);
  }
  const body = buildBody(request, state);
  const inner = new Request(url, {
    method: request.method,
    headers: buildHeaders(request, state, run),
    ...(body === undefined ? {} : { body }),
  });
  const response = await run.dispatch(inner, member);
  const bookmark = response.headers.get('x-d1-bookmark');
  if (bookmark !== null) state.bookmark = bookmark;
  const answer = await readInnerResponse(request.id, response, request.atomicityGroup, run.budget);
  return 'bound' in answer ? answerRefusal(request, refuseOverflow(request, answer), run) : answer;
}

function recordOutcome(request: BatchRequest, response: BatchResponse, state: BatchState): void {
  const identifier = findRecordIdentifier(response);
  const location = response.headers.location;
  const ok = response.status < 400;
  const first = !state.outcomes.has(request.id);
  state.outcomes.set(request.id, {
    ok,
    ...(identifier === undefined ? {} : { identifier }),
    ...(location === undefined ? {} : { location }),
  });
  if (request.atomicityGroup !== undefined && first) {
    const members = state.groups.get(request.atomicityGroup) ?? [];
    members.push(request.id);
    state.groups.set(request.atomicityGroup, members);
  }
}

/** The group a request belongs to: `Isolation: snapshot` makes the whole batch one group. */
const SNAPSHOT_GROUP = '';

function groupOf(request: BatchRequest, plan: BatchPlan): string | undefined {
  return plan.snapshot ? SNAPSHOT_GROUP : request.atomicityGroup;
}

/** The plan's requests in runs: each atomic group's requests together (they are adjacent: parse.ts), lone ones apart. */
function splitGroups(plan: BatchPlan): { name: string | undefined; requests: BatchRequest[] }[] {
  const runs: { name: string | undefined; requests: BatchRequest[] }[] = [];
  for (const request of plan.requests) {
    const name = groupOf(request, plan);
    const last = runs.at(-1);
    if (name !== undefined && last?.name === name) last.requests.push(request);
    else runs.push({ name, requests: [request] });
  }
  return runs;
}

/** Where a member's group is named: its `atomicityGroup`, or the batch's `Isolation` header. */
function groupField(request: BatchRequest, name: string): string {
  return name === SNAPSHOT_GROUP ? 'Isolation' : `${request.path}.atomicityGroup`;
}

/** 424 for a member of a group that failed because another member did. */
async function answerGroupFailed(request: BatchRequest, name: string, failed: string, run: BatchRun): Promise<BatchResponse> {
  const field = groupField(request, name);
  const label = name === SNAPSHOT_GROUP ? 'snapshot' : name;
  const error = new ApiError(
    'FailedDependency',
    `Request ${request.id} was not committed: request ${failed} of its atomic group failed, so nothing of the group was written.`,
    { errors: [{ path: field, message: message('batchGroupFailed', { id: request.id, field, name: label, failed }) }] },
  );
  return { ...(await answerRefusal(request, error, run)), consequence: true };
}

/** The answer of the member a refused commit is attributed to: its error as problem+json (500 for an unexpected one). */
function answerCommitFailure(request: BatchRequest, error: unknown, run: BatchRun): Promise<BatchResponse> {
  if (error instanceof ApiError) return answerRefusal(request, error, run);
  console.error(JSON.stringify({ level: 'error', message: 'atomic group commit failed', requestId: run.requestId, error: String(error) }));
  const internal = new ApiError('InternalError', `An unexpected error occurred. Quote request id ${run.requestId} when reporting it.`);
  return answerRefusal(request, internal, run);
}

/** Commits a group whose members all answered, then their write reactions (a failing one: that answer 500). */
async function commitGroup(
  group: AtomicGroup,
  requests: readonly BatchRequest[],
  answers: BatchResponse[],
  state: BatchState,
  run: BatchRun,
): Promise<GroupFailure | 'committed'> {
  const failure = await run.commitGroup(group);
  if (failure !== undefined) return failure;
  state.bookmark = run.readBookmark() ?? state.bookmark;
  for (const reaction of await group.runAfterCommit()) {
    const index = requests.findIndex((request) => request.id === reaction.id);
    const request = requests[index];
    if (request) answers[index] = await answerCommitFailure(request, reaction.error, run);
  }
  return 'committed';
}

/**
 * The requests of one atomic group, in order; their writes commit together once the last one answered. A failing member
 * stops the group (all but it answer 424), unless the database refuses a write staged before it: that member is named.
 */
async function runGroup(requests: readonly BatchRequest[], name: string, state: BatchState, run: BatchRun): Promise<BatchResponse[]> {
  const group = openAtomicGroup((member) => refuseInGroup(requests, member));
  const answers: BatchResponse[] = [];
  let failed: string | undefined;
  for (const request of requests) {
    // The members after a failed one do not run (they answer 424 below).
    if (failed !== undefined) break;
    const response = await runRequest(request, state, run, group.join(request));
    // Held: later members read its identifier ($<id>) and see it succeeded (dependsOn) before the group commits.
    recordOutcome(request, response, state);
    answers.push(response);
    if (response.status >= 400) failed = request.id;
  }
  const failure = failed === undefined ? await commitGroup(group, requests, answers, state, run) : await run.findGroupRefusal(group);
  if (failure === 'committed') return answers;
  if (failure !== undefined && failure.id !== failed) {
    // The database refuses a write staged before (or, at the commit, by) a member: that member is the cause.
    failed = failure.id;
    const index = requests.findIndex((request) => request.id === failure.id);
    const request = requests[index];
    if (request) answers[index] = await answerCommitFailure(request, failure.error, run);
  }
  if (failed === undefined) throw new Error('A failed atomic group names no request.');
  const settled: BatchResponse[] = [];
  for (const [index, request] of requests.entries()) {
    const answer = answers[index];
    const own = request.id === failed && answer ? answer : await answerGroupFailed(request, name, failed, run);
    recordOutcome(request, own, state);
    settled.push(own);
  }
  return settled;
}

/**
 * Every request of the plan, in order, one answer each. Requests without an `atomicityGroup` run and commit one by
 * one, exactly as if sent alone; the requests of a group (adjacent: parse.ts) run as one atomic group.
 */
export async function executeBatch(plan: BatchPlan, batch: BatchRun): Promise<BatchResponse[]> {
  const state: BatchState = { outcomes: new Map(), groups: new Map(), bookmark: batch.bookmark };
  const responses: BatchResponse[] = [];
  for (const run of splitGroups(plan)) {
    if (run.name === undefined) {
      for (const request of run.requests) {
        const response = await runRequest(request, state, batch);
        recordOutcome(request, response, state);
        responses.push(response);
      }
    } else responses.push(...(await runGroup(run.requests, run.name, state, batch)));
  }
  return responses;
}
