/**
 * Failed client authentications at `POST /connect/token`, limited on their own, per client id and per source address
 * (`CF-Connecting-IP`, which Cloudflare sets and the Deno server sets from the connection): an unauthenticated request
 * never spends a tenant/org's or a token subject's budget.
 *
 * A wrong secret, an unknown client id or a revoked client counts one failure against its client id and its address
 * (the AUTH_FAILURE_LIMITER binding: FAILURES_PER_PERIOD per PERIOD_SECONDS, per key). A key over the limit is blocked
 * until its window ends (at most PERIOD_SECONDS): requests from a blocked address are answered 429 before any database
 * read; a blocked client id is answered 429 before any database read unless the secret sent is the one the client had
 * when it was blocked, so a flood of wrong secrets never keeps the right secret out (only a secret rotated during the
 * back-off waits for it to end). Counts are shared by the binding (per location); the blocks are remembered by the
 * isolate that saw the limit reached, with the client's stored secret digest.
 */
import type { RateLimiter } from '../../runtime/platform';
import { computeSecondsToReset } from '../../http/rate-limit';

/** Failed authentications allowed per client id and per source address in each period. */
export const FAILURES_PER_PERIOD = 10;
/** The period of the failure counts, and the longest back-off. */
export const PERIOD_SECONDS = 10;
/** Blocks remembered at once (oldest dropped first). */
const MAX_BLOCKS = 10_000;

interface Block {
  readonly until: number;
  /** The digest of the client's secret when it was blocked (null: no usable client had that id). */
  readonly secretHash?: string | null;
}

const blocks = new Map<string, Block>();

const clientKey = (clientId: string): string => `client:${clientId}`;
const addressKey = (address: string): string => `address:${address}`;

function readBlock(key: string, nowMs: number): Block | undefined {
  const block = blocks.get(key);
  if (block && block.until <= nowMs) {
    blocks.delete(key);
    return undefined;
  }
  return block;
}

function rememberBlock(key: string, block: Block): void {
  if (blocks.size >= MAX_BLOCKS) blocks.delete(blocks.keys().next().value as string);
  blocks.set(key, block);
}

/** The request about to be authenticated. */
export interface AuthenticationAttempt {
  readonly clientId: string;
  /** The source address (`unknown` when the runtime gave none). */
  readonly address: string;
  /** The digest of the secret sent. */
  readonly secretHash: string;
}

/** Seconds the attempt must wait before it is looked up, or undefined when it may go on. */
export function readBackOff(attempt: AuthenticationAttempt, nowMs: number): number | undefined {
  const address = readBlock(addressKey(attempt.address), nowMs);
  const client = readBlock(clientKey(attempt.clientId), nowMs);
  const clientBlocked = client !== undefined && client.secretHash !== attempt.secretHash;
  const until = Math.max(address?.until ?? 0, clientBlocked ? client.until : 0);
  return until > nowMs ? Math.max(1, Math.ceil((until - nowMs) / 1000)) : undefined;
}

/**
 * Counts a failed authentication against the client id and the address; a key that reaches the limit is blocked
 * until its window ends. `storedSecretHash`: the digest of the client that has that id (null when none may get tokens).
 */
export async function countFailure(
  limiter: RateLimiter,
  attempt: AuthenticationAttempt,
  storedSecretHash: string | null,
  nowMs: number,
): Promise<void> {
  const [client, address] = await Promise.all([
    limiter.limit({ key: clientKey(attempt.clientId) }),
    limiter.limit({ key: addressKey(attempt.address) }),
  ]);
  const until = nowMs + computeSecondsToReset(PERIOD_SECONDS, nowMs) * 1000;
  if (!client.success) rememberBlock(clientKey(attempt.clientId), { until, secretHash: storedSecretHash });
  if (!address.success) rememberBlock(addressKey(attempt.address), { until });
}
