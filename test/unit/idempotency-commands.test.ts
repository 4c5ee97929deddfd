/** The idempotency key commands of the coordinator, on an in-memory state and a clock the test moves. */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/coordinator/commands';
import type { CommandContext, CoordinatorState } from '../../src/coordinator/commands';
import { IDEMPOTENCY_TTL_MS, idempotencyCommands, IN_FLIGHT_LEASE_MS } from '../../src/idempotency/commands';
import type { StoredResponse } from '../../src/idempotency/commands';
import { openUnreachableSession } from '../helpers/tenant-db';

function memoryState(): CoordinatorState & { readonly entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  // What put() stored under a key, as the test's caller asks for it (the commands read back what they wrote).
  const read = <T>(key: string): T | undefined => entries.get(key) as T | undefined;
  return {
    entries,
    get: async <T>(key: string) => read<T>(key),
    put: async (key, value) => void entries.set(key, structuredClone(value)),
    delete: async (key) => void entries.delete(key),
    list: async <T>(prefix: string, end: string, limit: number) => {
      const keys = [...entries.keys()].filter((key) => key.startsWith(prefix) && key < end).sort();
      const found = new Map<string, T>();
      for (const key of keys.slice(0, limit)) {
        const value = read<T>(key);
        if (value !== undefined) found.set(key, value);
      }
      return found;
    },
  };
}

const response: StoredResponse = { status: 201, headers: [['location', 'https://x/1']], body: '"1"' };
const scope = { tenantKey: 't', orgKey: 'o' };

function harness() {
  const state = memoryState();
  let now = Date.UTC(2026, 0, 1);
  const tenant = openUnreachableSession(scope, { on: new Date(now).toISOString(), by: 'system' });
  const context: CommandContext = { tenant, now: () => new Date(now), state };
  const begin = (key: string, fingerprint: string) =>
    runCommand(idempotencyCommands, context, { type: 'idempotency.begin', ...scope, key, fingerprint });
  const finish = (key: string, fingerprint: string) =>
    runCommand(idempotencyCommands, context, { type: 'idempotency.finish', ...scope, key, fingerprint, response });
  const release = (key: string, fingerprint: string) =>
    runCommand(idempotencyCommands, context, { type: 'idempotency.release', ...scope, key, fingerprint });
  return { state, begin, finish, release, advance: (ms: number) => (now += ms) };
}

describe('idempotency commands', () => {
  it('starts, refuses while in flight, replays once finished, and tells another request apart', async () => {
    const { begin, finish } = harness();
    expect(await begin('k', 'f1')).toEqual({ status: 'started' });
    expect(await begin('k', 'f1')).toEqual({ status: 'inFlight' });
    expect(await begin('k', 'f2')).toEqual({ status: 'mismatch' });
    expect(await finish('k', 'f1')).toBe(true);
    expect(await begin('k', 'f1')).toEqual({ status: 'replay', response });
    expect(await begin('k', 'f2')).toEqual({ status: 'mismatch' });
  });

  it('frees a released key, and a key whose request died once its lease is over', async () => {
    const { begin, finish, release, advance } = harness();
    await begin('k', 'f1');
    expect(await release('k', 'f2')).toBe(false);
    expect(await release('k', 'f1')).toBe(true);
    expect(await begin('k', 'f2')).toEqual({ status: 'started' });
    advance(IN_FLIGHT_LEASE_MS + 1);
    expect(await begin('k', 'f3')).toEqual({ status: 'started' });
    // The request that died cannot finish over the one that took its key.
    expect(await finish('k', 'f2')).toBe(false);
  });

  it('forgets answers after 24 hours, and drops expired entries from storage', async () => {
    const { begin, finish, advance, state } = harness();
    await begin('old', 'f');
    await finish('old', 'f');
    advance(IDEMPOTENCY_TTL_MS - 1);
    expect(await begin('old', 'g')).toEqual({ status: 'mismatch' });
    advance(2);
    expect(await begin('other', 'f')).toEqual({ status: 'started' });
    expect([...state.entries.keys()].some((key) => key.includes(':old'))).toBe(false);
    expect(await begin('old', 'g')).toEqual({ status: 'started' });
  });
});
