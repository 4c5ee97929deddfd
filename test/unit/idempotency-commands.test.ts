/** The idempotency key commands of the coordinator, on an in-memory state and a clock the test moves. */
import { describe, expect, it } from 'vitest';
import type { CoordinatorState } from '../../src/coordinator/commands';
import { IDEMPOTENCY_TTL_MS, idempotencyCommandHandlers, IN_FLIGHT_LEASE_MS } from '../../src/idempotency/commands';
import type { StoredResponse } from '../../src/idempotency/commands';
import type { Platform } from '../../src/platform/types';

function memoryState(): CoordinatorState & { readonly entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return {
    entries,
    get: async <T>(key: string) => entries.get(key) as T | undefined,
    put: async (key, value) => void entries.set(key, structuredClone(value)),
    delete: async (key) => void entries.delete(key),
    list: async <T>(prefix: string, end: string, limit: number) =>
      new Map(
        [...entries.entries()]
          .filter(([key]) => key.startsWith(prefix) && key < end)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .slice(0, limit) as [string, T][],
      ),
  };
}

const response: StoredResponse = { status: 201, headers: [['location', 'https://x/1']], body: '"1"' };

function harness() {
  const state = memoryState();
  let now = Date.UTC(2026, 0, 1);
  const platform = { now: () => new Date(now) } as unknown as Platform;
  const run = (type: string, key: string, fingerprint: string, extra: Record<string, unknown> = {}) => {
    const handler = idempotencyCommandHandlers[type];
    if (!handler) throw new Error(type);
    return handler(platform, { type, tenantKey: 't', orgKey: 'o', key, fingerprint, ...extra }, state);
  };
  return { state, run, advance: (ms: number) => (now += ms) };
}

describe('idempotency commands', () => {
  it('starts, refuses while in flight, replays once finished, and tells another request apart', async () => {
    const { run } = harness();
    expect(await run('idempotency.begin', 'k', 'f1')).toEqual({ status: 'started' });
    expect(await run('idempotency.begin', 'k', 'f1')).toEqual({ status: 'inFlight' });
    expect(await run('idempotency.begin', 'k', 'f2')).toEqual({ status: 'mismatch' });
    expect(await run('idempotency.finish', 'k', 'f1', { response })).toBe(true);
    expect(await run('idempotency.begin', 'k', 'f1')).toEqual({ status: 'replay', response });
    expect(await run('idempotency.begin', 'k', 'f2')).toEqual({ status: 'mismatch' });
  });

  it('frees a released key, and a key whose request died once its lease is over', async () => {
    const { run, advance } = harness();
    await run('idempotency.begin', 'k', 'f1');
    expect(await run('idempotency.release', 'k', 'f2')).toBe(false);
    expect(await run('idempotency.release', 'k', 'f1')).toBe(true);
    expect(await run('idempotency.begin', 'k', 'f2')).toEqual({ status: 'started' });
    advance(IN_FLIGHT_LEASE_MS + 1);
    expect(await run('idempotency.begin', 'k', 'f3')).toEqual({ status: 'started' });
    // The request that died cannot finish over the one that took its key.
    expect(await run('idempotency.finish', 'k', 'f2', { response })).toBe(false);
  });

  it('forgets answers after 24 hours, and drops expired entries from storage', async () => {
    const { run, advance, state } = harness();
    await run('idempotency.begin', 'old', 'f');
    await run('idempotency.finish', 'old', 'f', { response });
    advance(IDEMPOTENCY_TTL_MS - 1);
    expect(await run('idempotency.begin', 'old', 'g')).toEqual({ status: 'mismatch' });
    advance(2);
    expect(await run('idempotency.begin', 'other', 'f')).toEqual({ status: 'started' });
    expect([...state.entries.keys()].some((key) => key.includes(':old'))).toBe(false);
    expect(await run('idempotency.begin', 'old', 'g')).toEqual({ status: 'started' });
  });
});
