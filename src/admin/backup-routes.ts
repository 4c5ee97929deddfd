/**
 * Snapshots and point-in-time restores of one tenant/org (operator API, scope `operator`): take a snapshot, list
 * them, restore the tenant/org (or an empty one) to a moment of the retention or to a snapshot. Both run in the
 * tenant/org's coordinator: they answer 202 and a status resource to follow (`Location`).
 */
import * as v from 'valibot';
import { recordNotFound, validationError } from '../errors/api-error';
import type { FieldError } from '../errors/api-error';
import { readJsonBody } from '../http/body';
import { ADDRESS_PATTERN } from '../http/address';
import type { OperatorContext } from '../http/context';
import { jsonResponse } from '../http/responses';
import type { OperatorRoute } from '../http/route';
import { issueMessage, message } from '../messages/catalogue';
import type { RestoreRequest } from '../tenant/backup/operations';
import type { JobStatus } from '../tenant/backup/jobs';
import { normalizeDateTime } from '../validation/values';
import { parseStrictBody } from '../validation/strict-body';
import { JobAnswer, SnapshotListAnswer } from './backup-answers';

const PLACEMENT_PATH = '/admin/placements/:tenantKey/:orgKey';
const DAY_MS = 86_400_000;

const text = (field: string) => v.pipe(v.string(issueMessage('mustBeString', { field })), v.nonEmpty(issueMessage('required', { field })));
const address = (field: string) => v.pipe(text(field), v.regex(ADDRESS_PATTERN, issueMessage('addressPattern', { field })));

const RestoreBody = v.strictObject({
  asOf: v.optional(text('asOf')),
  snapshot: v.optional(text('snapshot')),
  target: v.optional(
    v.strictObject(
      { tenantKey: address('target.tenantKey'), orgKey: address('target.orgKey') },
      issueMessage('mustBeObject', { field: 'target' }),
    ),
  ),
});

function readScope(ctx: OperatorContext) {
  return { tenantKey: ctx.params.tenantKey ?? '', orgKey: ctx.params.orgKey ?? '' };
}

function formatJobPath(job: JobStatus): string {
  const folder = job.kind === 'snapshot' ? 'snapshots' : 'restores';
  return `/admin/placements/${encodeURIComponent(job.tenantKey)}/${encodeURIComponent(job.orgKey)}/${folder}/${job.id}`;
}

function answerJob(ctx: OperatorContext, job: JobStatus) {
  return jsonResponse(JobAnswer, job, { status: 202, headers: { location: new URL(formatJobPath(job), ctx.url).toString() } });
}

/** The body of POST /restore: a moment of the retention or a snapshot id (one of them), and an optional target. */
async function parseRestoreRequest(ctx: OperatorContext): Promise<RestoreRequest> {
  const result = parseStrictBody(RestoreBody, await readJsonBody(ctx.request));
  if (!result.success) throw validationError(result.errors);
  const { asOf, snapshot, target } = result.output;
  const days = ctx.platform.backups.retentionDays;
  const errors: FieldError[] = [];
  if ((asOf === undefined) === (snapshot === undefined))
    errors.push({ path: 'asOf', message: message('restoreMoment', { field: 'asOf', days }) });
  const moment = asOf === undefined ? undefined : normalizeDateTime(asOf);
  if (asOf !== undefined && moment === undefined) errors.push({ path: 'asOf', message: message('mustBeDateTime', { field: 'asOf' }) });
  const now = ctx.platform.now().getTime();
  if (moment !== undefined && (Date.parse(moment) > now || Date.parse(moment) < now - days * DAY_MS))
    errors.push({ path: 'asOf', message: message('outsideRetention', { field: 'asOf', days }) });
  if (errors.length > 0) throw validationError(errors);
  return {
    actor: ctx.principal.subject,
    ...(moment === undefined ? {} : { asOf: moment }),
    ...(snapshot === undefined ? {} : { snapshot }),
    ...(target === undefined ? {} : { target }),
  };
}

async function readJob(ctx: OperatorContext) {
  const job = await ctx.platform.backups.readJob(readScope(ctx), ctx.params.id ?? '');
  if (!job) throw recordNotFound(`Job ${ctx.params.id ?? ''}`, true);
  return jsonResponse(JobAnswer, job);
}

export const backupRoutes: readonly OperatorRoute[] = [
  {
    method: 'POST',
    path: `${PLACEMENT_PATH}/snapshots`,
    summary: 'Takes a snapshot of the tenant/org into the BACKUPS bucket; answers 202 and the job to follow',
    handle: async (ctx) => answerJob(ctx, await ctx.platform.backups.snapshot(readScope(ctx))),
  },
  {
    method: 'GET',
    path: `${PLACEMENT_PATH}/snapshots`,
    summary: 'The complete snapshots of the tenant/org, oldest first',
    handle: async (ctx) => jsonResponse(SnapshotListAnswer, { items: await ctx.platform.backups.listSnapshots(readScope(ctx)) }),
  },
  {
    method: 'GET',
    path: `${PLACEMENT_PATH}/snapshots/:id`,
    summary: 'A snapshot job: running, done or failed',
    handle: readJob,
  },
  {
    method: 'POST',
    path: `${PLACEMENT_PATH}/restore`,
    summary: 'Restores the tenant/org (or an empty target) to a moment (asOf) or a snapshot; answers 202 and the job to follow',
    handle: async (ctx) => answerJob(ctx, await ctx.platform.backups.restore(readScope(ctx), await parseRestoreRequest(ctx))),
  },
  {
    method: 'GET',
    path: `${PLACEMENT_PATH}/restores/:id`,
    summary: 'A restore job: running, done or failed',
    handle: readJob,
  },
];
