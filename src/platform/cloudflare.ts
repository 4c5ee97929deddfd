/** The Cloudflare side of the platform boundary: bindings -> Platform, and the coordinator's Durable Object. */
import { DurableObject } from 'cloudflare:workers';
import { parseConfig } from '../config/env';
import { runCommand } from '../coordinator/commands';
import type { CommandHandlers, CommandResult, Coordinator, CoordinatorCommand, CoordinatorState } from '../coordinator/commands';
import { CommandLanes } from '../coordinator/lanes';
import { openDrizzle } from '../db/client';
import type { TenantScope } from '../db/client';
import { meterD1 } from './d1-meter';
import type { Platform, TenantDatabaseRequest } from './types';

/** Today every tenant/org lives in the one `DB` binding; placing them on several databases changes only this. */
function openDatabase(env: Env, request: TenantDatabaseRequest) {
  return Promise.resolve(openDrizzle(request.meter ? meterD1(env.DB, request.meter) : env.DB));
}

/** A failed command as the Durable Object answers it: the error's name, message and the stub's retry flags. */
interface CommandFailure {
  readonly name: string;
  readonly message: string;
  readonly retryable?: boolean;
  readonly overloaded?: boolean;
}

type CommandOutcome = { readonly result: CommandResult } | { readonly failure: CommandFailure };

function describeFailure(error: unknown): CommandFailure {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const flags = error as { retryable?: unknown; overloaded?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(flags.retryable === true ? { retryable: true } : {}),
    ...(flags.overloaded === true ? { overloaded: true } : {}),
  };
}

function buildCoordinator(env: Env, scope: TenantScope): Coordinator {
  const stub = env.COORDINATOR.get(env.COORDINATOR.idFromName(`${scope.tenantKey}/${scope.orgKey}`));
  return {
    // The RPC type erases which command was sent; the object answers the result of that command's handler.
    send: async <C extends CoordinatorCommand>(command: C) => {
      const outcome = await stub.answer(command);
      if ('failure' in outcome) throw Object.assign(new Error(outcome.failure.message), outcome.failure);
      return outcome.result as CommandResult<C['type']>;
    },
  };
}

/** A static asset (`[assets]` in wrangler.toml) through the ASSETS binding; the host name does not matter. */
async function readWorkerAsset(env: Env, path: string): Promise<Response | undefined> {
  const response = await env.ASSETS.fetch(new URL(path, 'https://assets.local'));
  return response.ok ? response : undefined;
}

/** What the platform needs of the invocation: a way to finish work after the answer (ExecutionContext, DurableObjectState). */
export interface Invocation {
  waitUntil(promise: Promise<unknown>): void;
}

export function buildWorkerPlatform(env: Env, ctx: Invocation): Platform {
  return {
    openTenantDatabase: (request) => openDatabase(env, request),
    openEveryTenantDatabase: async () => [openDrizzle(env.DB)],
    cache: env.CACHE,
    config: parseConfig(env),
    coordinator: (scope) => buildCoordinator(env, scope),
    now: () => new Date(),
    waitUntil: (promise) => ctx.waitUntil(promise),
    readAsset: (path) => readWorkerAsset(env, path),
  };
}

/** Inside the Durable Object: the same bindings; commands never call back into a coordinator. */
function buildDurableObjectPlatform(env: Env, ctx: DurableObjectState): Platform {
  return {
    ...buildWorkerPlatform(env, ctx),
    coordinator: () => {
      throw new Error('A coordinator command cannot send commands to a coordinator.');
    },
  };
}

/**
 * The Durable Object class (one object per tenant/org, named `tenantKey/orgKey`) running `handlers`; the Worker
 * entry exports it as `TenantCoordinator`. The Worker's stub calls `answer`; `handle` runs a command (tests call it).
 */
export function defineTenantCoordinator(handlers: Partial<CommandHandlers>) {
  return class extends DurableObject<Env> {
    private readonly lanes = new CommandLanes();
    private readonly platform = buildDurableObjectPlatform(this.env, this.ctx);
    private readonly state: CoordinatorState = {
      get: async <T>(key: string) => this.ctx.storage.get<T>(key),
      put: async (key, value) => this.ctx.storage.put(key, value),
    };

    /** Commands are queued so that the D1 I/O of one never interleaves with another's. */
    async handle(command: CoordinatorCommand): Promise<CommandResult> {
      return this.lanes.dispatch(command, async () => {
        const db = await this.platform.openTenantDatabase({ tenantKey: command.tenantKey, orgKey: command.orgKey });
        return runCommand(handlers, { db, now: this.platform.now, state: this.state }, command);
      });
    }

    /**
     * The RPC entry of the Worker's coordinator: `handle`, with a failing command answered as `failure` (the stub
     * rethrows it) instead of thrown across RPC, which workerd would also log as an uncaught exception of the object.
     * The caller logs the failure (the request log, the cron job).
     */
    async answer(command: CoordinatorCommand): Promise<CommandOutcome> {
      try {
        return { result: await this.handle(command) };
      } catch (error) {
        return { failure: describeFailure(error) };
      }
    }
  };
}
