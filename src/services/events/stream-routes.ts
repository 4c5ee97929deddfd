/**
 * `GET /changes/stream`: the change feed pushed as it commits (src/live/), as Server-Sent Events
 * (`Accept: text/event-stream`) or over a WebSocket (an upgrade), served by the tenant/org's Durable Object; and
 * `POST /changes/tickets`: the ticket a browser opens it with (src/auth/stream-ticket.ts). Authorized exactly as
 * `GET /changes`: scope `application`, the token's `orgs`, its API client not revoked.
 */
import * as v from 'valibot';
import { digestToken, issueStreamTicket, STREAM_TICKET_SECONDS } from '../../auth/stream-ticket';
import { ApiError } from '../../errors/api-error';
import { decodeCursor, readFeedEnd, RETENTION_DAYS } from '../../events/feed';
import type { ApiContext } from '../../http/context';
import { jsonResponse, streamResponse } from '../../http/responses';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import type { LiveGrant, LiveTransportKind } from '../../live/grant';
import { LIVE_LIMITS } from '../../live/limits';
import { INTEGER } from '../../openapi/values';
import { RESOURCE_FILTER, RESOURCE_FILTER_MAX } from './subscription-input';
import { parseResource } from './feed-routes';

const StreamTicket = v.strictObject({
  ticket: v.pipe(v.string(), v.description('Opens one live stream of this tenant/org: `GET .../changes/stream?ticket=...`')),
  expiresIn: v.pipe(INTEGER, v.description('Seconds left to use it')),
  streamUrl: v.pipe(v.string(), v.url(), v.description('The stream with the ticket (add `resource` and `since` as needed)')),
});

/** Server-Sent Events or a WebSocket, as the request asks; 406 when it asks for neither. */
function chooseTransport(request: Request): LiveTransportKind {
  if (request.headers.get('upgrade')?.toLowerCase() === 'websocket') return 'ws';
  if (/\btext\/event-stream\b/i.test(request.headers.get('accept') ?? '')) return 'sse';
  throw new ApiError(
    'NotAcceptable',
    'The live stream answers Server-Sent Events (send Accept: text/event-stream) or a WebSocket upgrade; GET /changes answers JSON pages.',
  );
}

/** The bearer token's digest, or the one its ticket carries: the per-token limit counts by it. */
async function readTokenKey(ctx: ApiContext): Promise<string> {
  if (ctx.principal.ticket) return ctx.principal.ticket.tokenKey;
  const token = /^Bearer\s+(\S+)\s*$/i.exec(ctx.request.headers.get('authorization') ?? '')?.[1] ?? '';
  return digestToken(token);
}

async function openStream(ctx: ApiContext) {
  if (ctx.nested) throw new ApiError('NotAcceptable', 'A live stream cannot be opened inside $batch: open it on its own.');
  const transport = chooseTransport(ctx.request);
  const query = ctx.url.searchParams;
  const lastEventId = ctx.request.headers.get('last-event-id');
  const field = lastEventId ? 'Last-Event-ID' : 'since';
  const raw = lastEventId || query.get('since');
  const since = raw ? decodeCursor(raw, field) : undefined;
  const resource = parseResource(query.get('resource'));
  // Checked on the request's own read session, as GET /changes checks it; no cursor: from the feed's end.
  const end = await readFeedEnd(ctx.tenant, since, field);
  const { principal } = ctx;
  const grant: LiveGrant = {
    ...ctx.tenant.scope,
    transport,
    subject: principal.subject,
    ...(principal.clientId === undefined ? {} : { clientId: principal.clientId }),
    ...(principal.issuedAt === undefined ? {} : { issuedAt: principal.issuedAt }),
    expiresAt: principal.expiresAt,
    tokenKey: await readTokenKey(ctx),
    ...(principal.ticket ? { ticket: { id: principal.ticket.id, until: principal.ticket.until } } : {}),
    resource,
    since: since ?? end,
  };
  return streamResponse(await ctx.platform.live.open(ctx.request, grant));
}

async function issueTicket(ctx: ApiContext) {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(ctx.request.headers.get('authorization') ?? '')?.[1] ?? '';
  const secret = ctx.platform.config.pageTokenSecret;
  const issued = await issueStreamTicket(secret, ctx.principal, ctx.tenant.scope, await digestToken(token), ctx.platform.now());
  const streamUrl = `${ctx.apiBase}/changes/stream?ticket=${encodeURIComponent(issued.ticket)}`;
  return jsonResponse(StreamTicket, { ...issued, streamUrl }, { headers: { 'cache-control': 'no-store' } });
}

const STREAM_DESCRIPTION = `Every change of the tenant/org as it commits, in commit order, each once: the same items as \`GET /changes\` (same shape, same \`resource\` filter). Server-Sent Events with \`Accept: text/event-stream\` (\`id\` = the item's feed cursor, \`event: change\`, \`data\` = the item; \`event: ready\` once the replay after the cursor is over; a comment line every ${LIVE_LIMITS.heartbeatMs / 1000} s; \`event: end\` with the reason before the server ends it), or a WebSocket upgrade (JSON messages \`{"type":"change","cursor","change"}\`, \`{"type":"ready","cursor"}\`, \`{"type":"end","reason","detail"}\`; the client sends \`"ping"\` (answered \`"pong"\`) and acknowledges with \`{"type":"ack","cursor"}\`). Reconnecting with \`Last-Event-ID\` (SSE) or \`since\` replays what came after that cursor, then goes on live. At most ${LIVE_LIMITS.perOrg} streams per tenant/org and ${LIVE_LIMITS.perToken} per token (429 TooManyStreams with Retry-After); a client that holds more than ${LIVE_LIMITS.bufferBytes / 1024} KiB it has not read (or acknowledged) is ended as a slow consumer. The stream ends when the token expires or its API client is revoked. Browsers authenticate with a ticket (\`POST /changes/tickets\`). See docs/live.md.`;

export const streamRoutes: ApiRoute[] = [
  defineApiRoute({
    method: 'GET',
    path: '/changes/stream',
    scope: 'application',
    acceptsTicket: true,
    doc: {
      summary: 'Live change feed: the events of the tenant/org pushed as they commit (Server-Sent Events or WebSocket)',
      description: STREAM_DESCRIPTION,
      tags: ['Events'],
      operationId: 'streamChanges',
      security: [{ streamTicket: [] }],
      parameters: [
        {
          name: 'since',
          in: 'query',
          description: 'A feed cursor: replay every event after it first (default: from now)',
          schema: { json: { type: 'string' } },
        },
        {
          name: 'Last-Event-ID',
          in: 'header',
          description: 'Sent by EventSource when it reconnects: the cursor of the last event it got (takes precedence over `since`)',
          schema: { json: { type: 'string' } },
        },
        {
          name: 'resource',
          in: 'query',
          description: `Only events of this service prefix and below, as GET /changes (at most ${RESOURCE_FILTER_MAX} characters); \`*\` for all`,
          schema: { json: { type: 'string', maxLength: RESOURCE_FILTER_MAX, pattern: RESOURCE_FILTER.source } },
        },
        {
          name: 'ticket',
          in: 'query',
          description: `A stream ticket instead of the Authorization header (used once, within ${STREAM_TICKET_SECONDS} s)`,
          schema: { json: { type: 'string' } },
        },
      ],
      responses: {
        101: { description: 'Switching to a WebSocket (the request was an upgrade)' },
        200: { description: 'The Server-Sent Events stream', contentType: 'text/event-stream', schema: v.string() },
        400: {
          description:
            'since or Last-Event-ID is not a cursor of this feed or is ahead of it (InvalidCursor); resource is not a service prefix',
        },
        406: { description: 'Neither Accept: text/event-stream nor a WebSocket upgrade (NotAcceptable); or inside $batch' },
        410: {
          description: `The cursor is older than the ${RETENTION_DAYS}-day retention (CursorExpired): resynchronize with /odata, then open the stream without one`,
        },
        429: {
          description:
            'Too many requests (RateLimited), or too many open streams for the tenant/org or the token (TooManyStreams); see Retry-After',
        },
      },
    },
    handle: openStream,
  }),
  defineApiRoute({
    method: 'POST',
    path: '/changes/tickets',
    scope: 'application',
    readOnly: true,
    doc: {
      summary: 'A stream ticket: opens one live stream of the tenant/org without an Authorization header (browsers)',
      description: `Signed, for this tenant/org only, usable once within ${STREAM_TICKET_SECONDS} s (and not after the token expires); the stream it opens ends when the token would have expired, or when its API client is revoked. It carries no secret, so a URL with it in a log is harmless once used or expired.`,
      tags: ['Events'],
      operationId: 'createStreamTicket',
      schemas: { StreamTicket },
      responses: { 200: { description: 'The ticket', schema: StreamTicket, headers: ['Cache-Control'] } },
    },
    handle: issueTicket,
  }),
];
