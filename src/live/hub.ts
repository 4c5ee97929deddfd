/**
 * One tenant/org's live streams, the same in the Durable Object and in Deno's process: every connection first
 * replays the feed after its cursor from D1 (page by page, paced by its buffer), then joins the live set, which the
 * pump feeds: told by a write watcher that the feed reached `seq` (after the write committed), it reads, off the
 * writer's path and at most once per spacing (spaceFanOuts), the events after the last one it fanned out, once for
 * every connection, and sends each connection those of its resource after its own cursor, as one frame. Every
 * connection has its cursor, so an event is sent once to each, in commit order, none skipped: a connection joins the
 * live set only when its replay has reached the pump's position (else it reads again).
 */
import type { FeedPage } from '../events/feed';
import { isResourceUnder } from '../events/feed';
import type { ChangesFrame, EndReason, LiveFrame } from './frames';
import { toLiveEvent } from './hub-host';
import type { LiveHubHost } from './hub-host';
import type { LiveGrant } from './grant';
import { checkAdmission } from './admission';
import { LIVE_LIMITS } from './limits';
import { FanOutPacer } from './pacer';
import type { LiveTransport } from './transport';
import { explainFailure, waitForRoom } from './connection';
import type { Connection } from './connection';

export class LiveHub {
  private readonly connections = new Map<string, Connection>();
  private readonly live = new Set<Connection>();
  /** The last sequence number fanned out to the live set (undefined until a connection joins). */
  private head: number | undefined;
  /** The newest sequence number the hub was told of (a commit's: never guessed, see poll). */
  private target = 0;
  /** A read beyond the head was asked for without a sequence number (poll). */
  private polled = false;
  private pumping = false;
  private readonly pacer = new FanOutPacer(
    () => this.host.now(),
    () => this.live.size,
    () => void this.pump(),
  );
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private keepTimer: ReturnType<typeof setTimeout> | undefined;
  private lastRevocationCheck = 0;
  /** The expiry last given to the host (it is told again only when the earliest changes). */
  private expiryAt: number | null | undefined;

  constructor(private readonly host: LiveHubHost) {}

  /** 429 TooManyStreams when the tenant/org, or the grant's token, has as many streams as it may. */
  admit(grant: LiveGrant): void {
    checkAdmission(
      [...this.connections.values()].map(({ grant: open }) => open),
      grant,
    );
  }

  /** A new connection: it replays the feed after `grant.since`, then is live. Resolves when it has joined (or ended). */
  attach(id: string, grant: LiveGrant, transport: LiveTransport): Promise<void> {
    const connection: Connection = { id, grant, transport, cursor: grant.since, idSent: grant.since };
    this.register(connection);
    return this.replay(connection);
  }

  /** A connection that was live when the object hibernated (a WebSocket): live again at the kept position. */
  restore(id: string, grant: LiveGrant, transport: LiveTransport, head: number): void {
    const connection: Connection = { id, grant, transport, cursor: Math.max(head, grant.since), idSent: undefined };
    this.register(connection);
    this.head = Math.max(this.head ?? 0, head);
    this.target = Math.max(this.target, this.head);
    this.live.add(connection);
  }

  private register(connection: Connection): void {
    if (this.connections.size === 0) this.pollWhileQuiet();
    this.connections.set(connection.id, connection);
    this.scheduleExpiry();
    if (connection.transport.kind === 'sse' && this.heartbeat === undefined)
      this.heartbeat = setInterval(() => void this.beat(), LIVE_LIMITS.heartbeatMs);
  }

  /**
   * The first stream of a hub that had none: isolates that heard "nobody listens" stay quiet up to LIVE_LIMITS.quietMs,
   * so the hub reads the feed itself meanwhile.
   */
  private pollWhileQuiet(): void {
    const until = this.host.now() + LIVE_LIMITS.quietMs;
    const timer = setInterval(() => {
      if (this.host.now() >= until || this.connections.size === 0) clearInterval(timer);
      this.poll();
    }, LIVE_LIMITS.firstListenerPollMs);
  }

  /** The client went away. */
  detach(id: string): void {
    const connection = this.connections.get(id);
    if (!connection) return;
    this.connections.delete(id);
    this.live.delete(connection);
    this.scheduleExpiry();
    if (this.heartbeat !== undefined && ![...this.connections.values()].some((other) => other.transport.kind === 'sse')) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  /** Ends a connection, telling its client why. */
  end(id: string, reason: EndReason): void {
    this.connections.get(id)?.transport.close(reason);
    this.detach(id);
  }

  /** Ends every connection (the server stops). */
  endAll(reason: EndReason): void {
    for (const id of [...this.connections.keys()]) this.end(id, reason);
  }

  get size(): number {
    return this.connections.size;
  }

  /** A write committed: the feed reaches at least `seq`. */
  notify(seq: number): void {
    this.target = Math.max(this.target, seq);
    this.schedulePump();
  }

  /**
   * Reads the feed beyond the head once, whether told of a write or not: what a lost notification (an isolate gone
   * between a commit and its `waitUntil`) or a write no watcher sees (a restore's `restored` event) left behind.
   */
  poll(): void {
    this.polled = this.head !== undefined;
    if (this.polled) this.schedulePump();
  }

  /** Whether the pump has something to read: a live connection, and a commit beyond the head or a poll. */
  private get due(): boolean {
    return this.live.size > 0 && this.head !== undefined && (this.target > this.head || this.polled);
  }

  /** Ends the streams whose token has expired; schedules the next expiry. */
  expire(): void {
    const now = this.host.now();
    for (const connection of [...this.connections.values()])
      if (connection.grant.expiresAt * 1000 <= now) this.end(connection.id, 'tokenExpired');
    // Woken (the object's alarm, shared with other work, may have fired for that): the next expiry is armed again.
    this.expiryAt = undefined;
    this.scheduleExpiry();
  }

  /** Ends the streams of an API client revoked (or deleted) at `revokedAt` (epoch seconds). */
  revoke(clientId: string, revokedAt: number): void {
    for (const connection of [...this.connections.values()]) {
      const { grant } = connection;
      if (grant.clientId === clientId && (grant.issuedAt === undefined || grant.issuedAt <= revokedAt))
        this.end(connection.id, 'clientRevoked');
    }
  }

  private scheduleExpiry(): void {
    let next: number | null = null;
    for (const connection of this.connections.values()) next = Math.min(next ?? Infinity, connection.grant.expiresAt * 1000);
    if (next !== this.expiryAt) this.host.scheduleExpiry(next);
    this.expiryAt = next;
  }

  /** Sends a frame unless the connection holds too much already (then it ends as a slow consumer): false when ended. */
  private deliver(connection: Connection, frame: LiveFrame): boolean {
    if (connection.transport.closed) return false;
    if (connection.transport.pending() > LIVE_LIMITS.bufferBytes) {
      this.end(connection.id, 'slowConsumer');
      return false;
    }
    connection.transport.send(frame);
    return true;
  }

  /** Heartbeats of the Server-Sent Events streams (with the cursor, when filtered events moved it), and revocations. */
  private async beat(): Promise<void> {
    for (const connection of [...this.connections.values()]) {
      if (connection.transport.kind !== 'sse') continue;
      const seq = connection.cursor === connection.idSent ? undefined : connection.cursor;
      if (this.deliver(connection, { kind: 'heartbeat', seq }) && seq !== undefined) connection.idSent = seq;
    }
    this.poll();
    await this.checkRevocations();
  }

  /** Asks whether the API clients of the streams were revoked (at most every LIVE_LIMITS.revocationCheckMs). */
  private async checkRevocations(): Promise<void> {
    const isRevoked = this.host.isRevoked;
    if (!isRevoked || this.host.now() - this.lastRevocationCheck < LIVE_LIMITS.revocationCheckMs) return;
    this.lastRevocationCheck = this.host.now();
    for (const connection of [...this.connections.values()]) {
      const { clientId, issuedAt } = connection.grant;
      if (clientId !== undefined && (await isRevoked(clientId, issuedAt))) this.end(connection.id, 'clientRevoked');
    }
  }

  /** Reads the connection's events page by page, then joins it to the live set. */
  private async replay(connection: Connection): Promise<void> {
    try {
      for (;;) {
        if (!(await this.pace(connection))) return;
        const page = await this.host.readFeed(connection.cursor, connection.grant.resource, LIVE_LIMITS.pageSize);
        if (page.rows.length > 0 && !this.deliver(connection, { kind: 'changes', events: page.rows.map(toLiveEvent) })) return;
        connection.cursor = Math.max(connection.cursor, page.next);
        if (page.hasMore) continue;
        if (this.live.size === 0) this.head = connection.cursor;
        if (connection.cursor >= (this.head ?? connection.cursor)) return this.join(connection);
      }
    } catch (error) {
      this.end(connection.id, explainFailure(error));
    }
  }

  private join(connection: Connection): void {
    if (connection.transport.closed) return;
    this.live.add(connection);
    this.deliver(connection, { kind: 'ready', seq: connection.cursor });
    connection.idSent = connection.cursor;
    this.target = Math.max(this.target, connection.cursor);
    this.schedulePump();
  }

  /** Waits while the connection holds more than half its buffer: false when it ended (or stalled and was ended). */
  private async pace(connection: Connection): Promise<boolean> {
    const outcome = await waitForRoom(connection.transport, this.host.now);
    if (outcome === 'stalled') this.end(connection.id, 'slowConsumer');
    return outcome === 'room';
  }

  /** Runs the pump off the caller's path (a writer's answer goes first), spaced: the commits meanwhile share it. */
  private schedulePump(): void {
    if (!this.pumping) this.pacer.schedule();
  }

  /** Fans out what the feed holds beyond the head, while anyone listens (one pump at a time). */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.due && this.head !== undefined) {
        const asked = this.target;
        this.polled = false;
        this.pacer.begin();
        const page = await this.host.readFeed(this.head, '*', LIVE_LIMITS.pageSize);
        this.fanOut(page);
        if (page.hasMore) continue;
        // The feed's end, read after every notification so far: nothing more to read unless told of more meanwhile.
        if (this.target === asked) this.target = this.head;
        break;
      }
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: 'live pump failed', error: String(error) }));
      for (const connection of [...this.live]) this.end(connection.id, 'serverError');
    } finally {
      this.pumping = false;
    }
    // Told of more during the read: the next fan-out, spaced.
    if (this.due) this.schedulePump();
    if (this.live.size > 0) await this.checkRevocations();
  }

  /**
   * Sends a page to the live set: the connections at the same position with the same resource filter (nearly all of
   * them) share one frame, encoded once.
   */
  private fanOut(page: FeedPage): void {
    const events = page.rows.map(toLiveEvent);
    const frames = new Map<string, ChangesFrame>();
    for (const connection of [...this.live]) {
      const { resource } = connection.grant;
      const key = `${resource}\n${connection.cursor}`;
      let frame = frames.get(key);
      if (!frame) {
        frame = {
          kind: 'changes',
          events: events.filter((event) => event.seq > connection.cursor && isResourceUnder(resource, event.resource)),
        };
        frames.set(key, frame);
      }
      if (frame.events.length > 0 && this.deliver(connection, frame)) this.pacer.sent(connection.transport);
      connection.cursor = Math.max(connection.cursor, page.next);
    }
    this.head = Math.max(this.head ?? 0, page.next);
    this.target = Math.max(this.target, this.head);
    this.keepHead();
  }

  /** Persists the head (debounced): the pending timer also keeps the object awake until it has. */
  private keepHead(): void {
    const keep = this.host.keepHead;
    if (!keep || this.keepTimer !== undefined) return;
    this.keepTimer = setTimeout(() => {
      this.keepTimer = undefined;
      if (this.head !== undefined) keep(this.head);
    }, LIVE_LIMITS.keepHeadMs);
  }
}
