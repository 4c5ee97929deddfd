/** The Cloudflare side of the platform boundary: bindings -> Platform. */
import { readConfig } from '../config/env';
import type { AppConfig, Coordinator, CoordinatorCommand, Platform, RateLimits } from './types';

interface CoordinatorStub {
  handle(command: CoordinatorCommand): Promise<unknown>;
}

function buildCoordinator(env: Env, tenantKey: string, orgKey: string): Coordinator {
  const namespace = env.COORDINATOR;
  const stub = namespace.get(namespace.idFromName(`${tenantKey}/${orgKey}`)) as unknown as CoordinatorStub;
  return {
    send: async <T>(command: CoordinatorCommand) => (await stub.handle(command)) as T,
  };
}

/** A static asset (`[assets]` in wrangler.toml) through the ASSETS binding; the host name does not matter. */
async function readWorkerAsset(env: Env, path: string): Promise<Response | undefined> {
  const response = await env.ASSETS.fetch(new URL(path, 'https://assets.local'));
  return response.ok ? response : undefined;
}

/**
 * The Rate Limiting bindings (`[[ratelimits]]` in wrangler.toml, 60 s periods); their `limit` must equal
 * RATE_LIMIT_PER_MINUTE, which the answers' RateLimit-Policy states (0 turns limiting off).
 */
function buildRateLimits(env: Env, config: AppConfig): RateLimits | undefined {
  if (config.rateLimitPerMinute === 0) return undefined;
  return { limit: config.rateLimitPerMinute, periodSeconds: 60, org: env.ORG_RATE_LIMITER, subject: env.SUBJECT_RATE_LIMITER };
}

export function buildWorkerPlatform(env: Env, ctx: ExecutionContext): Platform {
  const config = readConfig(env as unknown as Record<string, unknown>);
  const rateLimits = buildRateLimits(env, config);
  return {
    db: env.DB,
    cache: env.CACHE,
    config,
    ...(rateLimits ? { rateLimits } : {}),
    coordinator: (tenantKey, orgKey) => buildCoordinator(env, tenantKey, orgKey),
    now: () => new Date(),
    waitUntil: (promise) => ctx.waitUntil(promise),
    readAsset: (path) => readWorkerAsset(env, path),
  };
}

/** Inside the Durable Object: the same bindings; commands never call back into a coordinator. */
export function buildDurableObjectPlatform(env: Env, ctx: DurableObjectState): Platform {
  return {
    db: env.DB,
    cache: env.CACHE,
    config: readConfig(env as unknown as Record<string, unknown>),
    coordinator: () => {
      throw new Error('A coordinator command cannot send commands to a coordinator.');
    },
    now: () => new Date(),
    waitUntil: (promise) => ctx.waitUntil(promise),
    readAsset: (path) => readWorkerAsset(env, path),
  };
}
