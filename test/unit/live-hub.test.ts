/**
 * The live hub (src/live/hub.ts) over a feed held in memory, with its reads answered in an order the test chooses:
 * whatever the interleaving of commits, notifications (late, repeated, lost but for the last), connections joining
 * mid-pump and reads finishing out of order, every connection gets each event after its cursor of its resource once,
 * in commit order. And the limits, the expiry, revocations and slow consumers.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedPage } from '../../src/events/feed';
import type { ChangeEventRow } from '../../src/events/table';
import type { EndReason, LiveFrame } from '../../src/live/frames';
import type { LiveGrant } from '../../src/live/grant';
import { LiveHub } from '../../src/live/hub';
import { LIVE_LIMITS, spaceFanOuts } from '../../src/live/limits';
import type { LiveTransport } from '../../src/live/transport';

const RESOURCES = ['operations/emailTemplates', 'referenceData/companies', 'maintenance/indicators'];
const FILTERS = ['*', 'operations', 'referenceData', 'maintenance/indicators'];

function rowOf(seq: number, resource: string): ChangeEventRow {
  return {
    tenantKey: 't',
    orgKey: 'o',
    seq,
    id: `e${seq}`,
    resource,
    changeType: 'created',
    recordId: `r${seq}`,
    recordKey: `k${seq}`,
    version: 1,
    occurredOn: '2026-01-01T00:00:00.000Z',
    actor: 'tester',
    changes: null,
  };
}

const under = (prefix: string, resource: string) => prefix === '*' || resource === prefix || resource.startsWith(`${prefix}/`);

/** The feed, and reads that answer the snapshot they were asked at once the test releases them. */
class MemoryFeed {
  readonly rows: ChangeEventRow[] = [];
  readonly pending: (() => void)[] = [];

  append(resource: string): number {
    const seq = this.rows.length + 1;
    this.rows.push(rowOf(seq, resource));
    return seq;
  }

  read(since: number, resource: string, top: number): Promise<FeedPage> {
    const last = this.rows.length;
    const matching = this.rows.filter((row) => row.seq > since && under(resource, row.resource)).slice(0, top + 1);
    const hasMore = matching.length > top;
    const rows = matching.slice(0, top);
    const page: FeedPage = { rows, hasMore, next: hasMore ? (rows.at(-1)?.seq ?? since) : Math.max(since, last) };
    return new Promise((resolve) => this.pending.push(() => resolve(page)));
  }

  /** Answers the read at `index` (modulo the pending count). */
  release(index: number): void {
    if (this.pending.length === 0) return;
    const [answer] = this.pending.splice(index % this.pending.length, 1);
    answer?.();
  }
}

class MemoryTransport implements LiveTransport {
  readonly frames: LiveFrame[] = [];
  ended: EndReason | 'closed' | undefined;
  held = 0;

  constructor(readonly kind: 'sse' | 'ws' = 'sse') {}

  send(frame: LiveFrame): void {
    this.frames.push(frame);
  }
  pending(): number {
    return this.held;
  }
  drained(): Promise<void> {
    return Promise.resolve();
  }
  close(reason?: EndReason): void {
    this.ended = reason ?? 'closed';
  }
  get closed(): boolean {
    return this.ended !== undefined;
  }
  changes(): number[] {
    return this.frames.flatMap((frame) => (frame.kind === 'changes' ? frame.events.map((event) => event.seq) : []));
  }
}

function grantOf(overrides: Partial<LiveGrant> = {}): LiveGrant {
  return {
    tenantKey: 't',
    orgKey: 'o',
    transport: 'sse',
    subject: 's',
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    tokenKey: 'token',
    resource: '*',
    since: 0,
    ...overrides,
  };
}

function openHub(feed: MemoryFeed, scheduled: (number | null)[] = []): LiveHub {
  return new LiveHub({
    readFeed: (since, resource, top) => feed.read(since, resource, top),
    now: () => Date.now(),
    scheduleExpiry: (at) => scheduled.push(at),
  });
}

/**
 * Lets every pending promise continuation run, and the fan-outs due meanwhile (they are spaced, on timers: fake ones
 * here), those they schedule included.
 */
async function settle(advanceMs: number = LIVE_LIMITS.fanOutSpacingMaxMs): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    for (let index = 0; index < 20; index += 1) await Promise.resolve();
    await vi.advanceTimersByTimeAsync(advanceMs);
  }
}

type Step =
  | { readonly kind: 'commit'; readonly resource: number; readonly notify: boolean }
  | { readonly kind: 'notify' }
  | { readonly kind: 'join'; readonly cursor: number; readonly filter: number }
  | { readonly kind: 'release'; readonly index: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('commit' as const), resource: fc.nat(2), notify: fc.boolean() }),
  fc.record({ kind: fc.constant('notify' as const) }),
  fc.record({ kind: fc.constant('join' as const), cursor: fc.nat(40), filter: fc.nat(3) }),
  fc.record({ kind: fc.constant('release' as const), index: fc.nat(10) }),
);

// The spaced fan-outs' timers (setTimeout) run on fake time, advanced by settle(); the hub's intervals (its first
// second's reads, heartbeats) stay real unless a test fakes them too.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the live hub', () => {
  it('gives every connection each event after its cursor of its resource once, in commit order, whatever the interleaving', async () => {
    vi.useFakeTimers();
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 60 }), async (steps) => {
        const feed = new MemoryFeed();
        const hub = openHub(feed);
        const joined: { transport: MemoryTransport; since: number; filter: string }[] = [];
        for (const step of steps) {
          if (step.kind === 'commit') {
            const seq = feed.append(RESOURCES[step.resource] ?? '*');
            if (step.notify) hub.notify(seq);
          } else if (step.kind === 'notify') hub.notify(feed.rows.length);
          else if (step.kind === 'join') {
            const since = Math.min(step.cursor, feed.rows.length);
            const filter = FILTERS[step.filter] ?? '*';
            const transport = new MemoryTransport();
            void hub.attach(`c${joined.length}`, grantOf({ since, resource: filter }), transport);
            joined.push({ transport, since, filter });
          } else feed.release(step.index);
          await settle();
        }
        // The last commit's notification arrives (earlier ones may have been lost), then every read is answered.
        hub.notify(feed.rows.length);
        // Until no read has been pending for three rounds (a fan-out planned meanwhile would have read).
        for (let round = 0, quiet = 0; round < 500 && quiet < 3; round += 1) {
          quiet = feed.pending.length === 0 ? quiet + 1 : 0;
          feed.release(0);
          await settle();
        }
        for (const { transport, since, filter } of joined) {
          const expected = feed.rows.filter((row) => row.seq > since && under(filter, row.resource)).map((row) => row.seq);
          expect(transport.changes()).toEqual(expected);
          expect(transport.frames.filter((frame) => frame.kind === 'ready')).toHaveLength(1);
        }
        // Its timers stop (the next run's fake time does not drive them).
        hub.endAll('shutdown');
      }),
      { numRuns: 300 },
    );
  });

  it('a connection restored after hibernation gets what came after the kept head', async () => {
    const feed = new MemoryFeed();
    for (let index = 0; index < 5; index += 1) feed.append(RESOURCES[0] ?? '');
    const hub = openHub(feed);
    const transport = new MemoryTransport('ws');
    hub.restore('c', grantOf({ since: 2, transport: 'ws' }), transport, 5);
    feed.append(RESOURCES[0] ?? '');
    hub.notify(6);
    await settle();
    feed.release(0);
    await settle();
    expect(transport.changes()).toEqual([6]);
  });

  it('admits up to the limits per tenant/org and per token, then 429 TooManyStreams with Retry-After', async () => {
    const feed = new MemoryFeed();
    const hub = openHub(feed);
    for (let index = 0; index < LIVE_LIMITS.perToken; index += 1) {
      hub.admit(grantOf());
      void hub.attach(`c${index}`, grantOf(), new MemoryTransport());
    }
    expect(() => hub.admit(grantOf())).toThrowError(expect.objectContaining({ code: 'TooManyStreams', status: 429 }));
    expect(() => hub.admit(grantOf({ tokenKey: 'another' }))).not.toThrow();
    for (let index = LIVE_LIMITS.perToken; index < LIVE_LIMITS.perOrg; index += 1)
      void hub.attach(`c${index}`, grantOf({ tokenKey: `k${index}` }), new MemoryTransport());
    try {
      hub.admit(grantOf({ tokenKey: 'yet another' }));
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'TooManyStreams', headers: { 'retry-after': String(LIVE_LIMITS.retryAfterSeconds) } });
    }
    hub.detach('c0');
    expect(() => hub.admit(grantOf({ tokenKey: 'yet another' }))).not.toThrow();
  });

  it('ends streams whose token expired (scheduling the next expiry), and those of a revoked API client issued before it', () => {
    const feed = new MemoryFeed();
    const scheduled: (number | null)[] = [];
    const hub = openHub(feed, scheduled);
    const now = Math.floor(Date.now() / 1000);
    const expired = new MemoryTransport();
    const later = new MemoryTransport();
    const revoked = new MemoryTransport();
    const newer = new MemoryTransport();
    void hub.attach('expired', grantOf({ expiresAt: now - 1 }), expired);
    void hub.attach('later', grantOf({ expiresAt: now + 100 }), later);
    void hub.attach('revoked', grantOf({ clientId: 'app', issuedAt: now - 10 }), revoked);
    void hub.attach('newer', grantOf({ clientId: 'app', issuedAt: now + 10 }), newer);
    expect(scheduled.at(-1)).toBe((now - 1) * 1000);
    hub.expire();
    expect([expired.ended, later.ended]).toEqual(['tokenExpired', undefined]);
    expect(scheduled.at(-1)).toBe((now + 100) * 1000);
    hub.revoke('app', now);
    expect([revoked.ended, newer.ended]).toEqual(['clientRevoked', undefined]);
    expect(hub.size).toBe(2);
  });

  it('ends a live connection that holds more than its buffer as a slow consumer, and goes on for the others', async () => {
    const feed = new MemoryFeed();
    const hub = openHub(feed);
    const slow = new MemoryTransport();
    const fast = new MemoryTransport();
    void hub.attach('slow', grantOf(), slow);
    void hub.attach('fast', grantOf(), fast);
    await settle();
    feed.release(0);
    feed.release(0);
    await settle();
    slow.held = LIVE_LIMITS.bufferBytes + 1;
    hub.notify(feed.append(RESOURCES[0] ?? ''));
    await settle();
    feed.release(0);
    await settle();
    expect(slow.ended).toBe('slowConsumer');
    expect(fast.changes()).toEqual([1]);
  });

  it("fans out off the notifier's path, spaced by the live connections: the commits meanwhile as one frame each", async () => {
    vi.useFakeTimers();
    const feed = new MemoryFeed();
    const hub = openHub(feed);
    const transports = Array.from({ length: 1000 }, () => new MemoryTransport());
    transports.forEach((transport, index) => void hub.attach(`c${index}`, grantOf({ tokenKey: `k${index}` }), transport));
    // The replays, and the hub's own reads of its first second (LIVE_LIMITS.quietMs), are over.
    for (let elapsed = 0; elapsed <= LIVE_LIMITS.quietMs + LIVE_LIMITS.fanOutSpacingMaxMs; elapsed += LIVE_LIMITS.firstListenerPollMs) {
      while (feed.pending.length > 0) feed.release(0);
      await vi.advanceTimersByTimeAsync(LIVE_LIMITS.firstListenerPollMs);
    }
    expect(feed.pending).toHaveLength(0);
    hub.notify(feed.append(RESOURCES[0] ?? ''));
    // Nothing is read or sent while the writer that told the hub runs; then at once (no fan-out for a while).
    expect(feed.pending).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(feed.pending).toHaveLength(1);
    feed.release(0);
    await vi.advanceTimersByTimeAsync(0);
    // Three more commits within the spacing of that fan-out: read once it has passed, sent as one frame.
    for (let index = 0; index < 3; index += 1) hub.notify(feed.append(RESOURCES[1] ?? ''));
    const spacing = spaceFanOuts(1000);
    expect(spacing).toBeGreaterThan(1);
    await vi.advanceTimersByTimeAsync(spacing - 1);
    expect(feed.pending).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(feed.pending).toHaveLength(1);
    feed.release(0);
    await settle();
    for (const transport of transports) {
      expect(transport.changes()).toEqual([1, 2, 3, 4]);
      const sizes = transport.frames.flatMap((frame) => (frame.kind === 'changes' ? [frame.events.length] : []));
      expect(sizes).toEqual([1, 3]);
    }
    // One frame object (encoded once) for every connection.
    expect(new Set(transports.map((transport) => transport.frames.at(-1))).size).toBe(1);
  });

  it('holds a fan-out while the runtime still holds the last frame of the one before, up to the most', async () => {
    vi.useFakeTimers();
    const feed = new MemoryFeed();
    const hub = openHub(feed);
    const transports = Array.from({ length: 10 }, () => new MemoryTransport());
    transports.forEach((transport, index) => void hub.attach(`c${index}`, grantOf({ tokenKey: `k${index}` }), transport));
    for (let elapsed = 0; elapsed <= LIVE_LIMITS.quietMs + LIVE_LIMITS.fanOutSpacingMaxMs; elapsed += LIVE_LIMITS.firstListenerPollMs) {
      while (feed.pending.length > 0) feed.release(0);
      await vi.advanceTimersByTimeAsync(LIVE_LIMITS.firstListenerPollMs);
    }
    const last = transports.at(-1) ?? new MemoryTransport();
    const fanOut = async (): Promise<void> => {
      expect(feed.pending).toHaveLength(1);
      feed.release(0);
      await vi.advanceTimersByTimeAsync(0);
    };
    hub.notify(feed.append(RESOURCES[0] ?? ''));
    await vi.advanceTimersByTimeAsync(0);
    await fanOut();
    // Its client has not taken the frame yet: the next fan-out waits, and goes as soon as it has.
    last.held = 100;
    hub.notify(feed.append(RESOURCES[0] ?? ''));
    await vi.advanceTimersByTimeAsync(10);
    expect(feed.pending).toHaveLength(0);
    last.held = 0;
    await vi.advanceTimersByTimeAsync(LIVE_LIMITS.fanOutDrainCheckMs);
    await fanOut();
    // Never taken: the next one goes anyway once the most has passed.
    last.held = 100;
    hub.notify(feed.append(RESOURCES[0] ?? ''));
    await vi.advanceTimersByTimeAsync(LIVE_LIMITS.fanOutSpacingMaxMs - 10);
    expect(feed.pending).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(10);
    await fanOut();
    for (const transport of transports) expect(transport.changes()).toEqual([1, 2, 3]);
  });

  it('sends Server-Sent Events heartbeats, with the cursor once filtered events moved it', async () => {
    vi.useFakeTimers();
    const feed = new MemoryFeed();
    const hub = openHub(feed);
    const transport = new MemoryTransport();
    void hub.attach('c', grantOf({ resource: 'maintenance' }), transport);
    await settle(1);
    feed.release(0);
    await settle(1);
    hub.notify(feed.append(RESOURCES[0] ?? ''));
    await settle(1);
    feed.release(0);
    await settle(1);
    vi.advanceTimersByTime(LIVE_LIMITS.heartbeatMs);
    await settle(1);
    expect(transport.frames.filter((frame) => frame.kind === 'heartbeat')).toEqual([{ kind: 'heartbeat', seq: 1 }]);
    vi.advanceTimersByTime(LIVE_LIMITS.heartbeatMs);
    await settle(1);
    expect(transport.frames.filter((frame) => frame.kind === 'heartbeat').at(-1)).toEqual({ kind: 'heartbeat', seq: undefined });
    hub.endAll('shutdown');
    expect(transport.ended).toBe('shutdown');
  });
});
