/**
 * The Worker's side of live streams: each tenant/org's streams are served by its Durable Object. Opening one forwards
 * the request (its WebSocket upgrade headers, and the grant the Worker checked) to the object's `fetch`, whose answer is
 * the stream (101 with the WebSocket, or 200 with the Server-Sent Events body); a refusal comes back as the failure
 * it is (src/coordinator/failure.ts) and is thrown here as its ApiError. Notifications and revocations are RPCs.
 */
import { rebuildFailure } from '../../coordinator/failure';
import type { CommandFailure } from '../../coordinator/failure';
import type { TenantScope } from '../../db/client';
import { LIVE_GRANT_HEADER } from '../../live/grant';
import type { LiveStreams } from '../platform';

/** Marks an answer of the object's `fetch` that is a refusal (its body: the failure). */
export const LIVE_FAILURE_HEADER = 'x-live-failure';

/** The headers of a WebSocket upgrade the object needs to accept it. */
const UPGRADE_HEADERS = ['upgrade', 'connection', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-protocol'];

/** What the Worker calls on the tenant/org's object (the object class implements them: live-object.ts). */
interface LiveObjectStub {
  fetch(input: string, init: RequestInit): Promise<Response>;
  notifyLive(seq: number): Promise<void>;
  leaveLive(id: string): Promise<void>;
  revokeLive(clientId: string, revokedAt: number): Promise<void>;
}

/** Names the connection an SSE answer of the object serves (the Worker tells the object when its client leaves). */
export const LIVE_CONNECTION_HEADER = 'x-live-connection';

/**
 * The object's Server-Sent Events body, relayed: when the client goes away the runtime cancels the Worker's answer,
 * and the object is told at once (a stream's cancellation does not reach the object through its own body).
 */
function relayEvents(body: ReadableStream<Uint8Array>, leave: () => Promise<void>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel(reason) {
        await Promise.allSettled([reader.cancel(reason), leave()]);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The object's answer as one the app may add headers to. */
function reopen(response: Response, stub: LiveObjectStub): Response {
  const headers = new Headers(response.headers);
  if (response.status === 101) return new Response(null, { status: 101, webSocket: response.webSocket, headers });
  const id = headers.get(LIVE_CONNECTION_HEADER);
  headers.delete(LIVE_CONNECTION_HEADER);
  if (!response.body || id === null) return new Response(response.body, { status: response.status, headers });
  return new Response(
    relayEvents(response.body, () => stub.leaveLive(id)),
    { status: response.status, headers },
  );
}

/** Live streams through the tenant/org's object (`stubOf`: its stub). */
export function buildLiveStreams(stubOf: (scope: TenantScope) => LiveObjectStub): LiveStreams {
  return {
    open: async (request, grant) => {
      const headers = new Headers();
      for (const name of UPGRADE_HEADERS) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      headers.set(LIVE_GRANT_HEADER, JSON.stringify(grant));
      const stub = stubOf(grant);
      const response = await stub.fetch('https://live.internal/stream', { headers });
      if (response.headers.has(LIVE_FAILURE_HEADER)) throw rebuildFailure(await response.json<CommandFailure>());
      return reopen(response, stub);
    },
    notify: (scope, seq) => stubOf(scope).notifyLive(seq),
    revokeClient: (scope, clientId, revokedAt) => stubOf(scope).revokeLive(clientId, revokedAt),
  };
}
