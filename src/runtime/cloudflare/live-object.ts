/**
 * The live streams of one tenant/org in its Durable Object (src/live/hub.ts does the work). WebSockets are accepted
 * with the Hibernation API (`acceptWebSocket`, tagged with the token and the API client): an idle object is evicted
 * from memory while they stay connected, costing nothing; a client's `ping` is answered `pong` by the runtime
 * without waking it. Each socket's attachment keeps its id and grant, and the object keeps the last position it fanned
 * out (`live:head`), so a woken object takes its sockets back live at that position. Server-Sent Events are a
 * stream the transport enqueues into, the answer's body (the Worker passes it through): an object with an open SSE
 * stream stays in memory (it cannot hibernate) until the stream ends.
 */
import { isClientRevoked } from '../../auth/revocation';
import type { CoordinatorState } from '../../coordinator/commands';
import { describeFailure } from '../../coordinator/failure';
import type { TenantScope } from '../../db/client';
import { readFeedPage } from '../../events/feed';
import { openTenantReader } from '../../tenant/session';
import { SSE_HEADERS } from '../../live/frames';
import type { LiveGrant } from '../../live/grant';
import { readLiveGrant } from '../../live/grant';
import { LiveHub } from '../../live/hub';
import { spendTicket } from '../../live/tickets';
import { SocketTransport, SseTransport } from '../../live/transport';
import type { LiveStreams, Platform } from '../platform';
import { setEarliestAlarm } from './object-storage';
import { LIVE_FAILURE_HEADER } from './live-streams';

const HEAD_KEY = 'live:head';

interface Attachment {
  readonly id: string;
  readonly grant: LiveGrant;
}

/** At most 10 tags of at most 256 characters each: the token's digest and the API client. */
function tagsOf(grant: LiveGrant): string[] {
  return [`token:${grant.tokenKey}`, ...(grant.clientId === undefined ? [] : [`client:${grant.clientId.slice(0, 240)}`])];
}

export class ObjectLiveStreams {
  private hub: LiveHub | undefined;
  private readonly sockets = new Map<string, SocketTransport>();

  /** `platform`: the object's own (its tenant databases, the cache). */
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly state: CoordinatorState,
    private readonly platform: () => Platform,
  ) {
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
    if (ctx.getWebSockets().length > 0) void ctx.blockConcurrencyWhile(() => this.restore());
  }

  /** `remote` (the stubs of other tenant/orgs' objects), but this object's commands tell its own hub directly. */
  withOwnWrites(remote: LiveStreams): LiveStreams {
    return { ...remote, notify: async (_scope, seq) => this.notify(seq) };
  }

  private hubOf(scope: TenantScope): LiveHub {
    this.hub ??= new LiveHub({
      readFeed: async (since, resource, top) => {
        const tenant = openTenantReader(this.platform().openTenant({ tenantKey: scope.tenantKey, orgKey: scope.orgKey }));
        return readFeedPage(tenant, since, resource, top);
      },
      now: () => Date.now(),
      scheduleExpiry: (at) => {
        // The object's one alarm, shared with moves and backups (the earliest wins; each re-arms what it needs).
        if (at !== null) void setEarliestAlarm(this.ctx.storage, at);
      },
      keepHead: (head) => void this.state.put(HEAD_KEY, head),
      isRevoked: (clientId, issuedAt) => isClientRevoked(this.platform().cache, clientId, issuedAt),
    });
    return this.hub;
  }

  /** The sockets that outlived a hibernation, live again at the kept position. */
  private async restore(): Promise<void> {
    const head = (await this.state.get<number>(HEAD_KEY)) ?? 0;
    for (const socket of this.ctx.getWebSockets()) {
      const attachment = socket.deserializeAttachment() as Attachment | null;
      if (!attachment) continue;
      const transport = new SocketTransport(socket);
      this.sockets.set(attachment.id, transport);
      this.hubOf(attachment.grant).restore(attachment.id, attachment.grant, transport, head);
    }
  }

  /** Opens a stream: the Worker forwarded the request with the grant it checked. */
  async open(request: Request): Promise<Response> {
    const grant = readLiveGrant(request);
    const hub = this.hubOf(grant);
    try {
      hub.admit(grant);
      if (grant.ticket) await spendTicket(this.state, grant.ticket, Math.floor(Date.now() / 1000));
    } catch (error) {
      return new Response(JSON.stringify(describeFailure(error)), { headers: { [LIVE_FAILURE_HEADER]: '1' } });
    }
    const id = crypto.randomUUID();
    if (grant.transport === 'ws') {
      const pair = new WebSocketPair();
      this.ctx.acceptWebSocket(pair[1], tagsOf(grant));
      pair[1].serializeAttachment({ id, grant } satisfies Attachment);
      const transport = new SocketTransport(pair[1]);
      this.sockets.set(id, transport);
      void hub.attach(id, grant, transport);
      return new Response(null, { status: 101, webSocket: pair[0] });
    }
    const transport = new SseTransport(() => hub.detach(id));
    void hub.attach(id, grant, transport);
    return new Response(transport.body, { headers: SSE_HEADERS });
  }

  private socketOf(socket: WebSocket): { id: string; transport: SocketTransport | undefined } | undefined {
    const attachment = socket.deserializeAttachment() as Attachment | null;
    return attachment ? { id: attachment.id, transport: this.sockets.get(attachment.id) } : undefined;
  }

  /** A client's message: an acknowledgement. */
  message(socket: WebSocket, message: string | ArrayBuffer): void {
    if (typeof message === 'string') this.socketOf(socket)?.transport?.receive(message);
  }

  /** A client closed its socket (or it failed). */
  closed(socket: WebSocket): void {
    const found = this.socketOf(socket);
    if (!found) return;
    found.transport?.gone();
    this.sockets.delete(found.id);
    this.hub?.detach(found.id);
    try {
      socket.close(1000, 'closed');
    } catch {
      // closed already
    }
  }

  /** A write committed: the feed reaches at least `seq` (nothing to do when no stream was ever opened here). */
  notify(seq: number): boolean {
    this.hub?.notify(seq);
    return (this.hub?.size ?? 0) > 0;
  }

  revoke(clientId: string, revokedAt: number): void {
    this.hub?.revoke(clientId, revokedAt);
  }

  /** The object's alarm: streams whose token expired end; what a restore wrote (no watcher sees it) is read. */
  expire(): void {
    this.hub?.expire();
    this.hub?.poll();
  }
}
