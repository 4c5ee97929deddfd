/** The Cloudflare side of the platform boundary: bindings -> Platform, and the coordinator's Durable Object. */
import { DurableObject } from 'cloudflare:workers';
import { parseConfig } from '../../config/env';
import type { AppConfig } from '../../config/env';
import { runCommand } from '../../coordinator/commands';
import type { CommandHandlers, CommandResult, Coordinator, CoordinatorCommand, CoordinatorState } from '../../coordinator/commands';
import { describeFailure, rebuildFailure } from '../../coordinator/failure';
import type { CommandFailure } from '../../coordinator/failure';
import { CommandLanes } from '../../coordinator/lanes';
import type { TenantScope } from '../../db/client';
import { buildBackupOperations } from '../../tenant/backup/operations';
import type { BackupCoordinator } from '../../tenant/backup/coordinator';
import type { JobStatus, RestorePlan } from '../../tenant/backup/jobs';
import { BackupRunner } from '../../tenant/backup/runner';
import type { StartOutcome } from '../../tenant/backup/runner';
import { buildR2BackupStore } from '../../tenant/backup/store';
import { readDatabaseSet } from '../../tenant/d1/databases';
import type { RoundTripMeter } from '../../tenant/d1/meter';
import { buildWorkflowImports } from './import-workflow';
import { buildR2FileStore } from './r2-files';
import { advanceSession } from '../../tenant/placement/bookmark';
import type { Bookmark, ReadSession } from '../../tenant/placement/bookmark';
import { TenantMover } from '../../tenant/placement/mover';
import type { MoveOutcome } from '../../tenant/placement/mover';
import { buildPlacementOperations } from '../../tenant/placement/operations';
import type { MoveCoordinator } from '../../tenant/placement/operations';
import { denyCoordinator, openTenantExecutor, watchWrites } from '../tenant-databases';
import { scanEveryTenantDatabase } from '../../tenant/placement/scan';
import { openTenantSession } from '../../tenant/session';
import type { TenantModel } from '../tenant-databases';
import { callerShareOf } from '../platform';
import type { LiveStreams, Platform, RateLimits } from '../platform';
import { buildDeliveryQueue } from './deliveries';
import { buildLiveStreams } from './live-streams';
import { ObjectLiveStreams } from './live-object';
import { buildObjectState, setEarliestAlarm } from './object-storage';

/**
 * What the Durable Object answers for a command: its result and the D1 bookmark of what it read and wrote (null: it did
 * not touch D1), or its failure (src/coordinator/failure.ts), which the stub rethrows; and its D1 round trips either way.
 */
type CommandAnswer = (
  { readonly result: CommandResult; readonly bookmark: Bookmark | null } | { readonly failure: CommandFailure; readonly bookmark: null }
) & { readonly roundTrips: number };

function findStub(env: Env, scope: TenantScope) {
  return env.COORDINATOR.get(env.COORDINATOR.idFromName(`${scope.tenantKey}/${scope.orgKey}`));
}

function buildCoordinator(env: Env, scope: TenantScope, session?: ReadSession, meter?: RoundTripMeter): Coordinator {
  const stub = findStub(env, scope);
  return {
    send: async <C extends CoordinatorCommand>(command: C) => {
      const answer = await stub.answer(command);
      if (meter) meter.roundTrips += answer.roundTrips;
      if ('failure' in answer) throw rebuildFailure(answer.failure);
      if (session) advanceSession(session, answer.bookmark);
      // The RPC type erases which command was sent; the object answers the result of that command's handler.
      return answer.result as CommandResult<C['type']>;
    },
  };
}

/** Moves run in the tenant/org's Durable Object. */
function buildMoveCoordinator(env: Env): MoveCoordinator {
  return {
    move: (scope, target) => findStub(env, scope).move(scope, target),
    awaitMove: (scope, timeoutMs) => findStub(env, scope).awaitMove(timeoutMs),
  };
}

/** Snapshots and restores run in the tenant/org's Durable Object. */
function buildBackupCoordinator(env: Env): BackupCoordinator {
  return {
    startSnapshot: (scope, database, id) => findStub(env, scope).startSnapshot(scope, database, id),
    startRestore: (scope, plan, id) => findStub(env, scope).startRestore(scope, plan, id),
    readJob: (scope, id) => findStub(env, scope).readJob(id),
  };
}

/** A static asset (`[assets]` in wrangler.toml) through the ASSETS binding; the host name does not matter. */
async function fetchWorkerAsset(env: Env, path: string): Promise<Response | undefined> {
  const response = await env.ASSETS.fetch(new URL(path, 'https://assets.local'));
  return response.ok ? response : undefined;
}

/**
 * The Rate Limiting bindings (`[[ratelimits]]` in wrangler.toml, 60 s periods): ORG_ and SUBJECT_RATE_LIMITER's
 * `limit` must equal RATE_LIMIT_PER_MINUTE, CALLER_RATE_LIMITER's its caller share (callerShareOf, src/runtime/platform.ts), which the answers' RateLimit-Policy states (0 turns limiting off).
 */
function buildRateLimits(env: Env, config: AppConfig): RateLimits | undefined {
  if (config.rateLimitPerMinute === 0) return undefined;
  return {
    limit: config.rateLimitPerMinute,
    periodSeconds: 60,
    org: env.ORG_RATE_LIMITER,
    callerLimit: callerShareOf(config.rateLimitPerMinute),
    caller: env.CALLER_RATE_LIMITER,
    subject: env.SUBJECT_RATE_LIMITER,
    authFailures: env.AUTH_FAILURE_LIMITER,
  };
}

/** What the platform needs of the invocation: a way to finish work after the answer (ExecutionContext, DurableObjectState). */
interface Invocation {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The bindings every invocation shares (no rate limits: those apply to `/api` requests only). Live streams go to the
 * tenant/org's object; the object itself passes its own (`live`), so that its commands' writes reach its streams at once.
 */
function buildBindingsPlatform(
  env: Env,
  ctx: Invocation,
  model: TenantModel,
  moves: MoveCoordinator,
  live: LiveStreams = buildLiveStreams((scope) => findStub(env, scope)),
): Omit<Platform, 'rateLimits'> {
  const databases = readDatabaseSet(env);
  const now = () => new Date();
  const waitUntil = (promise: Promise<unknown>) => ctx.waitUntil(promise);
  const deliveries = buildDeliveryQueue(env);
  const watch = (scope: TenantScope) => watchWrites(model.watchers, scope, { deliveries, live, now, waitUntil });
  const config = parseConfig(env);
  const store = buildR2BackupStore(env.BACKUPS);
  const coordinator = buildBackupCoordinator(env);
  return {
    openTenant: (request) => openTenantExecutor({ databases, moves, now, watch }, request),
    scanTenantDatabases: () => scanEveryTenantDatabase(databases),
    placements: buildPlacementOperations(databases, model.tables, moves),
    backups: buildBackupOperations({ databases, tables: model.tables, store, coordinator, retentionDays: config.backupRetentionDays, now }),
    cache: env.CACHE,
    config,
    coordinator: (scope, session, meter) => buildCoordinator(env, scope, session, meter),
    deliveries,
    live,
    files: buildR2FileStore(env.IMPORT_FILES),
    imports: buildWorkflowImports(env),
    now,
    waitUntil,
    readAsset: (path) => fetchWorkerAsset(env, path),
  };
}

/** The platform of one Worker invocation over the tenant model (src/tenant-model.ts). */
export function buildWorkerPlatform(env: Env, ctx: Invocation, model: TenantModel): Platform {
  const platform = buildBindingsPlatform(env, ctx, model, buildMoveCoordinator(env));
  const rateLimits = buildRateLimits(env, platform.config);
  return rateLimits ? { ...platform, rateLimits } : platform;
}

/** The object's background jobs: tenant/org moves, and snapshots and restores (src/tenant/backup/). */
function openObjectJobs(env: Env, storage: DurableObjectStorage, model: TenantModel, state: CoordinatorState) {
  const common = {
    databases: readDatabaseSet(env),
    tables: model.tables,
    state,
    setAlarm: (at: number) => setEarliestAlarm(storage, at),
    now: () => new Date(),
    stepStatements: parseConfig(env).moveStepQueries,
  };
  return { mover: new TenantMover(common), backups: new BackupRunner({ ...common, store: buildR2BackupStore(env.BACKUPS) }) };
}

/**
 * The object's commands and moves: `answer` (what the Worker's stub calls: a command's result with the bookmark of its
 * D1 work, or its failure), `handle` (a command's result, thrown on failure: tests call it), `move` and `awaitMove`
 * (tenant/org moves; writes held by a restore wait there too).
 */
function defineCommandObject(handlers: Partial<CommandHandlers>, model: TenantModel) {
  return class extends DurableObject<Env> {
    private readonly lanes = new CommandLanes();
    protected readonly state = buildObjectState(this.ctx.storage);
    protected readonly jobs = openObjectJobs(this.env, this.ctx.storage, model, this.state);
    protected readonly live = new ObjectLiveStreams(this.ctx, this.state, () => this.platform);
    // Inside the object, a write refused by a move waits for this object's own move; commands never send commands; the
    // writes of its commands reach its live streams directly.
    private readonly platform: Platform = denyCoordinator(
      buildBindingsPlatform(
        this.env,
        this.ctx,
        model,
        { move: (scope, target) => this.move(scope, target), awaitMove: (_scope, timeoutMs) => this.awaitMove(timeoutMs) },
        this.live.withOwnWrites(buildLiveStreams((scope) => findStub(this.env, scope))),
      ),
    );

    /** Commands are queued so that the D1 I/O of one never interleaves with another's. */
    private run(command: CoordinatorCommand, meter: RoundTripMeter): Promise<{ result: CommandResult; bookmark: Bookmark | null }> {
      return this.lanes.dispatch(command, async () => {
        const session: ReadSession = { start: 'primary', bookmark: null };
        const executor = this.platform.openTenant({ tenantKey: command.tenantKey, orgKey: command.orgKey, session, meter });
        const tenant = openTenantSession({ executor, stamp: { on: this.platform.now().toISOString(), by: 'system' } });
        const result = await runCommand(handlers, { tenant, now: this.platform.now, state: this.state }, command);
        return { result, bookmark: session.bookmark };
      });
    }

    /** The Worker's entry: a failing command is answered as `failure`; the caller logs it (the request log, the cron job). */
    async answer(command: CoordinatorCommand): Promise<CommandAnswer> {
      const meter: RoundTripMeter = { roundTrips: 0 };
      try {
        return { ...(await this.run(command, meter)), roundTrips: meter.roundTrips };
      } catch (error) {
        return { failure: describeFailure(error), bookmark: null, roundTrips: meter.roundTrips };
      }
    }

    async handle(command: CoordinatorCommand): Promise<CommandResult> {
      return (await this.run(command, { roundTrips: 0 })).result;
    }

    /** A move waits for no snapshot or restore: it is refused while one runs. */
    async move(scope: TenantScope, target: string): Promise<MoveOutcome> {
      const job = await this.jobs.backups.findRunning();
      if (job) return { outcome: 'conflict', target: `(a ${job.kind} runs: ${job.id})` };
      return this.jobs.mover.move({ tenantKey: scope.tenantKey, orgKey: scope.orgKey }, target);
    }

    /** Writes held by a move or a restore wait for both. */
    async awaitMove(timeoutMs: number): Promise<boolean> {
      return (await this.jobs.mover.whenSettled(timeoutMs)) && (await this.jobs.backups.whenSettled(timeoutMs));
    }
  };
}

/**
 * The Durable Object class (one object per tenant/org, named `tenantKey/orgKey`) running `handlers`; the Worker
 * entry exports it as `TenantCoordinator`. RPC entries: those of its commands and moves (above), `startSnapshot`,
 * `startRestore` and `readJob` (snapshots and restores, src/tenant/backup/), and the `alarm` that runs moves and
 * those jobs.
 */
export function defineTenantCoordinator(handlers: Partial<CommandHandlers>, model: TenantModel) {
  return class extends defineCommandObject(handlers, model) {
    async startSnapshot(scope: TenantScope, database: string, id: string): Promise<StartOutcome> {
      return this.jobs.backups.startSnapshot({ tenantKey: scope.tenantKey, orgKey: scope.orgKey }, database, id);
    }

    async startRestore(scope: TenantScope, plan: RestorePlan, id: string): Promise<StartOutcome> {
      return this.jobs.backups.startRestore({ tenantKey: scope.tenantKey, orgKey: scope.orgKey }, plan, id);
    }

    async readJob(id: string): Promise<JobStatus | null> {
      return this.jobs.backups.readJob(id);
    }

    override async alarm(): Promise<void> {
      await this.jobs.mover.runAlarm();
      await this.jobs.backups.runAlarm();
      this.live.expire();
    }

    /** Opens a live stream (the Worker forwards the request with the grant it checked: live-streams.ts). */
    override async fetch(request: Request): Promise<Response> {
      return this.live.open(request);
    }

    override webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
      this.live.message(socket, message);
    }

    override webSocketClose(socket: WebSocket): void {
      this.live.closed(socket);
    }

    override webSocketError(socket: WebSocket): void {
      this.live.closed(socket);
    }

    /** A write committed elsewhere (a request, a Workflow step, a cron job): the feed reaches at least `seq`. */
    async notifyLive(seq: number): Promise<boolean> {
      return this.live.notify(seq);
    }

    /** An API client was revoked or deleted: the streams its tokens opened here end. */
    async revokeLive(clientId: string, revokedAt: number): Promise<void> {
      this.live.revoke(clientId, revokedAt);
    }
  };
}
