/** Work that must follow a write before its answer leaves (e.g. retiring cache entries the write made stale). */
import { ApiError } from '../errors/api-error';
import type { TenantScope } from '../db/client';
import type { Platform } from '../runtime/platform';
import type { ApiContext } from './context';

/** What a reaction reads: the platform and the tenant/org (of a request, or of a file import's processing). */
interface ReactionContext {
  readonly platform: Platform;
  readonly scope: TenantScope;
}

export type WriteReaction = (ctx: ReactionContext) => Promise<void>;

/**
 * Runs `write`, then `react` before the answer leaves: after a success (a failing reaction fails the request), and
 * after any unexpected failure, which might have committed (a failing reaction is then ignored). A refused write
 * (ApiError) changed nothing and does not react.
 */
export async function reactAfterWrite<A extends Response>(ctx: ApiContext, write: () => Promise<A>, react: WriteReaction): Promise<A> {
  // In an atomic group of `$batch` nothing is committed yet: the reaction follows the group's commit (never its failure).
  const reacting: ReactionContext = { platform: ctx.platform, scope: ctx.tenant.scope };
  const group = ctx.tenant.group;
  if (group) {
    const answer = await write();
    if (answer.status < 300) group.afterCommit(() => react(reacting));
    return answer;
  }
  let response: A;
  try {
    response = await write();
  } catch (error) {
    if (!(error instanceof ApiError)) await react(reacting).catch(() => undefined);
    throw error;
  }
  if (response.status < 300) await react(reacting);
  return response;
}
