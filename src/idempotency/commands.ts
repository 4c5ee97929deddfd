/**
 * Idempotency keys in the tenant/org's coordinator (Durable Object storage; docs/storage.md): its commands run one at
 * a time, so "is this key new?" and "mark it in flight" are one atomic step. Entries:
 * `idem:<key>` -> { fingerprint, state: inFlight | done, until, response } and the expiry index
 * `idemexp:<until, 15 digits>:<key>`, through which every `begin` deletes a few expired entries.
 */
import type { CommandHandlers, CoordinatorState } from '../coordinator/commands';

/** How long a finished request's answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a request may hold its key in flight before another one may take it over (a request that died). */
export const IN_FLIGHT_LEASE_MS = 2 * 60 * 1000;
const PURGE_PER_BEGIN = 20;

/** An answer kept for replays: status, the headers worth replaying, the body text. */
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

type BeginOutcome =
  | { readonly status: 'started' }
  | { readonly status: 'replay'; readonly response: StoredResponse }
  | { readonly status: 'inFlight' }
  | { readonly status: 'mismatch' };

/** Which key, and the request it was sent with (method, path, query and body, hashed). */
export interface IdempotencyKeyUse {
  readonly key: string;
  readonly fingerprint: string;
}

declare module '../coordinator/commands' {
  interface CommandCatalog {
    /** A request with this key arrives: replay, refuse, or take the key (in flight) and go on. */
    'idempotency.begin': { payload: IdempotencyKeyUse; result: BeginOutcome };
    /** The request answered: keep its answer for replays (false: the key was no longer this request's). */
    'idempotency.finish': { payload: IdempotencyKeyUse & { readonly response: StoredResponse }; result: boolean };
    /** The request was refused (4xx, nothing written): the key is free again (false: it was not this request's). */
    'idempotency.release': { payload: IdempotencyKeyUse; result: boolean };
  }
}

const ENTRY = 'idem:';
const EXPIRY = 'idemexp:';

function expiryKey(until: number, key: string): string {
  return `${EXPIRY}${String(until).padStart(15, '0')}:${key}`;
}

async function storeEntry(state: CoordinatorState, key: string, entry: Entry, previous: Entry | undefined): Promise<void> {
  if (previous) await state.delete(expiryKey(previous.until, key));
  await state.put(`${ENTRY}${key}`, entry);
  await state.put(expiryKey(entry.until, key), key);
}

async function deleteEntry(state: CoordinatorState, key: string, entry: Entry): Promise<void> {
  await state.delete(`${ENTRY}${key}`);
  await state.delete(expiryKey(entry.until, key));
}

/** Deletes a few entries whose time is up (oldest first), so storage stays bounded by the keys of the last 24 hours. */
async function deleteExpiredEntries(state: CoordinatorState, now: number): Promise<void> {
  const expired = await state.list<string>(EXPIRY, expiryKey(now, ''), PURGE_PER_BEGIN);
  for (const [index, key] of expired) {
    await state.delete(index);
    const entry = await state.get<Entry>(`${ENTRY}${key}`);
    if (entry && entry.until <= now) await state.delete(`${ENTRY}${key}`);
  }
}

/** The key's entry while its time is not up. */
async function findLiveEntry(state: CoordinatorState, key: string, now: number): Promise<Entry | undefined> {
  const entry = await state.get<Entry>(`${ENTRY}${key}`);
  return entry && entry.until > now ? entry : undefined;
}

export const idempotencyCommands: Pick<CommandHandlers, 'idempotency.begin' | 'idempotency.finish' | 'idempotency.release'> = {
  'idempotency.begin': async ({ state, now }, { key, fingerprint }) => {
    const time = now().getTime();
    await deleteExpiredEntries(state, time);
    const current = await findLiveEntry(state, key, time);
    if (current && current.fingerprint !== fingerprint) return { status: 'mismatch' };
    if (current?.state === 'inFlight') return { status: 'inFlight' };
    if (current?.response) return { status: 'replay', response: current.response };
    const stale = await state.get<Entry>(`${ENTRY}${key}`);
    await storeEntry(state, key, { fingerprint, state: 'inFlight', until: time + IN_FLIGHT_LEASE_MS }, stale);
    return { status: 'started' };
  },
  'idempotency.finish': async ({ state, now }, { key, fingerprint, response }) => {
    const entry = await state.get<Entry>(`${ENTRY}${key}`);
    if (!entry || entry.state !== 'inFlight' || entry.fingerprint !== fingerprint) return false;
    await storeEntry(state, key, { fingerprint, state: 'done', until: now().getTime() + IDEMPOTENCY_TTL_MS, response }, entry);
    return true;
  },
  'idempotency.release': async ({ state }, { key, fingerprint }) => {
    const entry = await state.get<Entry>(`${ENTRY}${key}`);
    if (!entry || entry.state !== 'inFlight' || entry.fingerprint !== fingerprint) return false;
    await deleteEntry(state, key, entry);
    return true;
  },
};
