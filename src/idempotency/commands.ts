/**
 * Idempotency keys in the tenant/org's coordinator (Durable Object storage; docs/storage.md): its commands run one at
 * a time, so "is this key new?" and "mark it in flight" are one atomic step. Entries:
 * `idem:<key>` -> { fingerprint, state: inFlight | done, until, response } and the expiry index
 * `idemexp:<until, 15 digits>:<key>`, through which every `begin` drops a few expired entries.
 */
import type { CommandHandler, CoordinatorState } from '../coordinator/commands';
import type { CoordinatorCommand } from '../platform/types';

/** How long a finished request's answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a request may hold its key in flight before another one may take it over (a request that died). */
export const IN_FLIGHT_LEASE_MS = 2 * 60 * 1000;
const PURGE_PER_BEGIN = 20;

export interface StoredResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

interface Entry {
  readonly fingerprint: string;
  readonly state: 'inFlight' | 'done';
  /** Epoch ms: the end of the lease while in flight, the expiry once done. */
  readonly until: number;
  readonly response?: StoredResponse;
}

export type BeginOutcome =
  | { readonly status: 'started' }
  | { readonly status: 'replay'; readonly response: StoredResponse }
  | { readonly status: 'inFlight' }
  | { readonly status: 'mismatch' };

export interface IdempotencyCommand extends CoordinatorCommand {
  readonly key: string;
  readonly fingerprint: string;
  /** finish: the answer to replay. */
  readonly response?: StoredResponse;
}

const ENTRY = 'idem:';
const EXPIRY = 'idemexp:';

function expiryKey(until: number, key: string): string {
  return `${EXPIRY}${String(until).padStart(15, '0')}:${key}`;
}

async function writeEntry(state: CoordinatorState, key: string, entry: Entry, previous: Entry | undefined): Promise<void> {
  if (previous) await state.delete(expiryKey(previous.until, key));
  await state.put(`${ENTRY}${key}`, entry);
  await state.put(expiryKey(entry.until, key), key);
}

async function dropEntry(state: CoordinatorState, key: string, entry: Entry): Promise<void> {
  await state.delete(`${ENTRY}${key}`);
  await state.delete(expiryKey(entry.until, key));
}

/** Drops a few entries whose time is up (oldest first), so storage stays bounded by the keys of the last 24 hours. */
async function purgeExpired(state: CoordinatorState, now: number): Promise<void> {
  const expired = await state.list<string>(EXPIRY, expiryKey(now, ''), PURGE_PER_BEGIN);
  for (const [index, key] of expired) {
    await state.delete(index);
    const entry = await state.get<Entry>(`${ENTRY}${key}`);
    if (entry && entry.until <= now) await state.delete(`${ENTRY}${key}`);
  }
}

async function readCurrent(state: CoordinatorState, key: string, now: number): Promise<Entry | undefined> {
  const entry = await state.get<Entry>(`${ENTRY}${key}`);
  return entry && entry.until > now ? entry : undefined;
}

export const idempotencyCommandHandlers: Readonly<Record<string, CommandHandler>> = {
  /** A request with this key arrives: replay, refuse, or take the key (in flight) and go on. */
  'idempotency.begin': async (platform, command, state): Promise<BeginOutcome> => {
    const { key, fingerprint } = command as IdempotencyCommand;
    const now = platform.now().getTime();
    await purgeExpired(state, now);
    const current = await readCurrent(state, key, now);
    if (current && current.fingerprint !== fingerprint) return { status: 'mismatch' };
    if (current?.state === 'inFlight') return { status: 'inFlight' };
    if (current?.response) return { status: 'replay', response: current.response };
    const stale = await state.get<Entry>(`${ENTRY}${key}`);
    await writeEntry(state, key, { fingerprint, state: 'inFlight', until: now + IN_FLIGHT_LEASE_MS }, stale);
    return { status: 'started' };
  },
  /** The request answered: keep its answer for replays. */
  'idempotency.finish': async (platform, command, state) => {
    const { key, fingerprint, response } = command as IdempotencyCommand;
    const entry = await state.get<Entry>(`${ENTRY}${key}`);
    if (!entry || entry.state !== 'inFlight' || entry.fingerprint !== fingerprint || !response) return false;
    await writeEntry(state, key, { fingerprint, state: 'done', until: platform.now().getTime() + IDEMPOTENCY_TTL_MS, response }, entry);
    return true;
  },
  /** The request was refused (4xx, nothing written): the key is free again for a corrected retry. */
  'idempotency.release': async (_platform, command, state) => {
    const { key, fingerprint } = command as IdempotencyCommand;
    const entry = await state.get<Entry>(`${ENTRY}${key}`);
    if (!entry || entry.state !== 'inFlight' || entry.fingerprint !== fingerprint) return false;
    await dropEntry(state, key, entry);
    return true;
  },
};
