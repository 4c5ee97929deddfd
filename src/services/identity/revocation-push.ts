/**
 * A revoked or deleted API client's tokens are refused by every request within 60 s (src/auth/revocation.ts: KV,
 * cached 30 s at the edge and 30 s per isolate). Its live streams are ended at once: the objects of the tenant/orgs
 * its tokens may use (its `orgs`; for `*`, every placed org of the tenant, the first 1,000) are told off the answer's
 * path. A stream the push misses (an org placed later, more than 1,000 orgs, a lost message) is ended by the object's
 * own check of the same KV entry, every 30 s while it is awake.
 */
import type { ApiContext } from '../../http/context';
import type { ApiClientRow } from './table';

const MAX_PUSHED_ORGS = 1000;

/** Tells the objects of the client's tenant/orgs that its tokens issued up to now are void. */
export function pushClientRevocation(ctx: ApiContext, client: Pick<ApiClientRow, 'clientId' | 'orgs'>): void {
  const revokedAt = Math.floor(ctx.platform.now().getTime() / 1000);
  const { tenantKey } = ctx.tenant.scope;
  const push = async () => {
    const orgs = client.orgs.includes('*') ? await ctx.platform.placements.listOrgs(tenantKey, MAX_PUSHED_ORGS) : client.orgs;
    await Promise.all(orgs.map((orgKey) => ctx.platform.live.revokeClient({ tenantKey, orgKey }, client.clientId, revokedAt)));
  };
  ctx.platform.waitUntil(
    push().catch((error: unknown) =>
      console.error(
        JSON.stringify({ level: 'error', message: 'revocation push failed', tenantKey, clientId: client.clientId, error: String(error) }),
      ),
    ),
  );
}
