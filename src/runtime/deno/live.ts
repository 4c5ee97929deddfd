/**
 * Live streams under Deno: the same hub as the Durable Object's (src/live/hub.ts), one per tenant/org in this process.
 * WebSockets are Deno's (`Deno.upgradeWebSocket`, which pings idle clients and closes those that do not answer; a
 * client's `ping` text is answered `pong` as the Durable Object's runtime does); Server-Sent Events stream from a
 * TransformStream. Nothing hibernates here: the process holds its connections, and a token's expiry is a timer.
 */
import { isClientRevoked } from '../../auth/revocation';
import type { CoordinatorState } from '../../coordinator/commands';
import { describeFailure, rebuildFailure } from '../../coordinator/failure';
import type { TenantScope } from '../../db/client';
import { readFeedPage } from '../../events/feed';
import { openTenantReader } from '../../tenant/session';
import { SSE_HEADERS } from '../../live/frames';
import type { EndReason } from '../../live/frames';
import type { LiveGrant } from '../../live/grant';
import { LiveHub } from '../../live/hub';
import { spendTicket } from '../../live/tickets';
import { SocketTransport, SseTransport } from '../../live/transport';
import type { LiveStreams, Platform } from '../platform';
import type { DenoWebSocket } from './runtime';
import { requireDenoRuntime } from './runtime';

/** Seconds between Deno's pings of a quiet WebSocket (and how long a pong may take). */
const PING_SECONDS = 30;
/** setTimeout's longest delay. */
const MAX_DELAY_MS = 2 ** 31 - 1;

interface LocalParts {
  /**
   * The request Deno.serve gave for `request` (an upgrade works on that object only: the server hands the app a copy
   * with the client's address, src/deno-server.ts).
   */
  original(request: Request): Request;
  /** The platform whose tenant databases the hubs read. */
  platform(): Platform;
  /** The coordinator state of a tenant/org (where spent tickets are kept). */
  stateOf(scope: TenantScope): CoordinatorState;
}

interface LocalHub {
  readonly hub: LiveHub;
  timer?: ReturnType<typeof setTimeout>;
}

export class LocalLiveHubs implements LiveStreams {
  private readonly hubs = new Map<string, LocalHub>();

  constructor(private readonly parts: LocalParts) {}

  private hubOf(scope: TenantScope): LiveHub {
    const name = `${scope.tenantKey}/${scope.orgKey}`;
    const found = this.hubs.get(name);
    if (found) return found.hub;
    const local: LocalHub = {
      hub: new LiveHub({
        readFeed: async (since, resource, top) => {
          const tenant = openTenantReader(this.parts.platform().openTenant({ tenantKey: scope.tenantKey, orgKey: scope.orgKey }));
          return readFeedPage(tenant, since, resource, top);
        },
        now: () => Date.now(),
        scheduleExpiry: (at) => {
          if (local.timer !== undefined) clearTimeout(local.timer);
          local.timer =
            at === null ? undefined : setTimeout(() => local.hub.expire(), Math.min(MAX_DELAY_MS, Math.max(0, at - Date.now())));
        },
        isRevoked: (clientId, issuedAt) => isClientRevoked(this.parts.platform().cache, clientId, issuedAt),
      }),
    };
    this.hubs.set(name, local);
    return local.hub;
  }

  async open(request: Request, grant: LiveGrant): Promise<Response> {
    const hub = this.hubOf(grant);
    try {
      hub.admit(grant);
      if (grant.ticket) await spendTicket(this.parts.stateOf(grant), grant.ticket, Math.floor(Date.now() / 1000));
    } catch (error) {
      // As the Durable Object answers a refusal and the Worker rethrows it.
      throw rebuildFailure(structuredClone(describeFailure(error)));
    }
    const id = crypto.randomUUID();
    if (grant.transport === 'ws') {
      const { socket, response } = requireDenoRuntime().upgradeWebSocket(this.parts.original(request), { idleTimeout: PING_SECONDS });
      this.serveSocket(hub, id, grant, socket);
      return response;
    }
    const transport = new SseTransport(() => hub.detach(id));
    // The client going away aborts the request (Deno runs with --unstable-no-legacy-abort): noticed at once.
    request.signal.addEventListener('abort', () => transport.close());
    void hub.attach(id, grant, transport);
    return new Response(transport.body, { headers: SSE_HEADERS });
  }

  private serveSocket(hub: LiveHub, id: string, grant: LiveGrant, socket: DenoWebSocket): void {
    const transport = new SocketTransport(socket);
    const gone = () => {
      transport.gone();
      hub.detach(id);
    };
    socket.onopen = () => void hub.attach(id, grant, transport);
    socket.onmessage = (event) => {
      if (event.data === 'ping') socket.send('pong');
      else if (typeof event.data === 'string') transport.receive(event.data);
    };
    socket.onclose = gone;
    socket.onerror = gone;
  }

  async notify(scope: TenantScope, seq: number): Promise<boolean> {
    const hub = this.hubs.get(`${scope.tenantKey}/${scope.orgKey}`)?.hub;
    hub?.notify(seq);
    return (hub?.size ?? 0) > 0;
  }

  async revokeClient(scope: TenantScope, clientId: string, revokedAt: number): Promise<void> {
    this.hubs.get(`${scope.tenantKey}/${scope.orgKey}`)?.hub.revoke(clientId, revokedAt);
  }

  /** Ends every stream (the server stops: open streams would hold it). */
  endAll(reason: EndReason): void {
    for (const local of this.hubs.values()) {
      if (local.timer !== undefined) clearTimeout(local.timer);
      local.hub.endAll(reason);
    }
  }
}
