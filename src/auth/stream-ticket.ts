/**
 * Stream tickets: how a browser opens a live stream. `EventSource` (and the browser's `WebSocket`) cannot send an
 * `Authorization` header, and a bearer token in a URL would be written to every log the URL passes (proxies, the
 * platform's request logs, browser history). A client with a bearer token asks `POST /changes/tickets` for a ticket and
 * opens `GET /changes/stream?ticket=...` with it. A ticket:
 *
 * - names one tenant/org and is accepted by the live stream only (no other route reads `ticket`);
 * - lives 60 seconds and opens one stream: the tenant/org's object records its id when it is used;
 * - carries what the token said that the stream needs (subject, scopes, API client, `iat`, `exp`): the stream it opens
 *   ends when the token would have expired, and the revocation of its API client ends it as it refuses the token;
 * - is signed (HMAC-SHA-256 with a key derived from PAGE_TOKEN_SECRET, else JWT_SECRET, apart from `$skiptoken`'s), so
 *   it cannot be forged or edited, and holds no secret: a ticket read from a log is spent or expired.
 */
import type { ApiError } from '../errors/api-error';
import type { AppConfig } from '../config/env';
import type { TenantScope } from '../db/client';
import { authenticate, unauthorized } from './token';
import type { Principal, Scope } from './token';

/** How long a ticket may wait to be used. */
export const STREAM_TICKET_SECONDS = 60;
const PREFIX = 'st1.';

interface TicketClaims {
  readonly t: string;
  readonly o: string;
  readonly sub: string;
  readonly scp: readonly Scope[];
  readonly cid?: string;
  readonly iat?: number;
  /** The token's `exp` (epoch seconds). */
  readonly exp: number;
  /** Until when the ticket may be used (epoch seconds). */
  readonly use: number;
  readonly jti: string;
  readonly tok: string;
}

function encodeBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
}

let ticketKey: { secret: string; key: CryptoKey } | undefined;

async function readTicketKey(secret: string): Promise<CryptoKey> {
  if (ticketKey?.secret === secret) return ticketKey.key;
  const material = new TextEncoder().encode(`erp-edge-api stream ticket\n${secret}`);
  const key = await crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  ticketKey = { secret, key };
  return key;
}

async function sign(secret: string, body: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await readTicketKey(secret), new TextEncoder().encode(body));
  return encodeBase64Url(new Uint8Array(mac));
}

/** A digest of a bearer token (streams count against the token that opened them, its tickets included). */
export async function digestToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return encodeBase64Url(new Uint8Array(digest)).slice(0, 22);
}

/** A ticket for `principal` on `scope`, usable once within STREAM_TICKET_SECONDS of `now` (and before the token expires). */
export async function issueStreamTicket(secret: string, principal: Principal, scope: TenantScope, tokenKey: string, now: Date) {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const claims: TicketClaims = {
    t: scope.tenantKey,
    o: scope.orgKey,
    sub: principal.subject,
    scp: [...principal.scopes],
    ...(principal.clientId === undefined ? {} : { cid: principal.clientId }),
    ...(principal.issuedAt === undefined ? {} : { iat: principal.issuedAt }),
    exp: principal.expiresAt,
    use: Math.min(nowSeconds + STREAM_TICKET_SECONDS, principal.expiresAt),
    jti: crypto.randomUUID(),
    tok: tokenKey,
  };
  const body = `${PREFIX}${encodeBase64Url(new TextEncoder().encode(JSON.stringify(claims)))}`;
  return { ticket: `${body}.${await sign(secret, body)}`, expiresIn: claims.use - nowSeconds };
}

function readClaims(text: string | undefined): TicketClaims | undefined {
  if (text === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (char) => char.charCodeAt(0))));
    return typeof claims === 'object' && claims !== null && 'jti' in claims ? (claims as TicketClaims) : undefined;
  } catch {
    return undefined;
  }
}

function refuseTicket(detail: string): ApiError {
  return unauthorized(detail, 'invalid_token');
}

/** The principal a ticket stands for on `scope`; 401 when it is not one this API signed, is for another tenant/org, or expired. */
async function verifyStreamTicket(secret: string, ticket: string, scope: TenantScope, now: Date): Promise<Principal> {
  const cut = ticket.lastIndexOf('.');
  const body = ticket.slice(0, Math.max(cut, 0));
  const mac = ticket.slice(cut + 1);
  if (!body.startsWith(PREFIX) || ticket.length > 2048) throw refuseTicket('The stream ticket is not valid.');
  const expected = new TextEncoder().encode(await sign(secret, body));
  const given = new TextEncoder().encode(mac);
  let difference = expected.length ^ given.length;
  for (let index = 0; index < expected.length; index += 1) difference |= (expected[index] ?? 0) ^ (given[index] ?? 0);
  const claims = difference === 0 ? readClaims(decodeBase64Url(body.slice(PREFIX.length))) : undefined;
  if (!claims || claims.t !== scope.tenantKey || claims.o !== scope.orgKey) throw refuseTicket('The stream ticket is not valid.');
  if (claims.use <= Math.floor(now.getTime() / 1000)) throw refuseTicket('The stream ticket has expired: ask for another.');
  return {
    subject: claims.sub,
    scopes: new Set(claims.scp),
    orgs: [`${claims.t}/${claims.o}`],
    ...(claims.cid === undefined ? {} : { clientId: claims.cid }),
    ...(claims.iat === undefined ? {} : { issuedAt: claims.iat }),
    expiresAt: claims.exp,
    ticket: { id: claims.jti, until: claims.use, tokenKey: claims.tok },
  };
}

/**
 * The request's principal: its bearer token's, or (where `ticket` allows it, the live stream's route, and only without
 * an `Authorization` header) its stream ticket's.
 */
export function authenticateWithTicket(
  request: Request,
  config: AppConfig,
  scope: TenantScope,
  now: Date,
  ticket: boolean,
): Promise<Principal> {
  const given = ticket && !request.headers.has('authorization') ? new URL(request.url).searchParams.get('ticket') : null;
  if (given === null) return authenticate(request, config);
  return verifyStreamTicket(config.pageTokenSecret, given, scope, now);
}
