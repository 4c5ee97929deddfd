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
  notifyLive(seq: number): Promise<boolean>;
  revokeLive(clientId: string, revokedAt: number): Promise<void>;
}

/**
 * The object's answer as one the app may add headers to. A Server-Sent Events body passes through as it is (the
 * runtime pipes it, no JavaScript per chunk).
 */
function reopen(response: Response): Response {
  const headers = new Headers(response.headers);
  if (response.status === 101) return new Response(null, { status: 101, webSocket: response.webSocket, headers });
  return new Response(response.body, { status: response.status, headers });
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
      const response = await stubOf(grant).fetch('https://live.internal/stream', { headers });
      if (response.headers.has(LIVE_FAILURE_HEADER)) throw rebuildFailure(await response.json<CommandFailure>());
      return reopen(response);
    },
    notify: (scope, seq) => stubOf(scope).notifyLive(seq),
    revokeClient: (scope, clientId, revokedAt) => stubOf(scope).revokeLive(clientId, revokedAt),
  };
}
