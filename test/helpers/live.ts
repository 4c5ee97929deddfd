/**
 * Live streams as a test reads them (the same in the Workers run and the Deno run): Server-Sent Events parsed from the
 * response body as it arrives, WebSocket messages from the runtime's socket (under Deno, test/deno/websocket-client.ts).
 * Waiting for a message is bounded by the test's own timeout, never by a sleep.
 */
import { SELF } from 'cloudflare:test';
import { expect } from 'vitest';
import { ORIGIN } from './api';
import type { CallResult, TenantClient } from './api';
import { assertDocumentedResponse } from './contract';
import type { FeedItem } from './events';

/** One Server-Sent Events message (a comment-only block is a heartbeat: event `heartbeat`, no data). */
export interface SseMessage {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: string;
}

/** A queue of what arrives, and waiters for it. */
class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters: ((item: T | undefined) => void)[] = [];
  ended = false;

  push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  }

  /** The next item; undefined once the stream has ended and nothing is left. */
  next(): Promise<T | undefined> {
    const item = this.items.shift();
    if (item !== undefined || this.ended) return Promise.resolve(item);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

export interface EventStream {
  readonly response: Response;
  /** The next message, heartbeats skipped unless asked for; undefined when the stream ended. */
  next(options?: { heartbeats?: boolean }): Promise<SseMessage | undefined>;
  close(): Promise<void>;
}

/** Parses a Server-Sent Events body into messages, as EventSource does (one dispatch per blank line); answers its reader. */
function parseEvents(body: ReadableStream<Uint8Array>, inbox: Inbox<SseMessage>): ReadableStreamDefaultReader<string> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  let block: { event?: string; id?: string; data: string[]; comment: boolean } = { data: [], comment: false };
  const dispatch = () => {
    if (block.data.length > 0 || block.event) inbox.push({ event: block.event ?? 'message', id: block.id, data: block.data.join('\n') });
    else if (block.comment || block.id !== undefined) inbox.push({ event: 'heartbeat', id: block.id, data: '' });
    block = { data: [], comment: false };
  };
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        pending += value;
        let cut: number;
        while ((cut = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, cut).replace(/\r$/, '');
          pending = pending.slice(cut + 1);
          if (line === '') dispatch();
          else if (line.startsWith(':')) block.comment = true;
          else {
            const [field = '', ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (field === 'data') block.data.push(value);
            else if (field === 'event') block.event = value;
            else if (field === 'id') block.id = value;
          }
        }
      }
    } catch {
      // cancelled, or the server cut the stream
    }
    inbox.end();
  })();
  void reader.closed.catch(() => undefined);
  return reader;
}

/** `GET /changes/stream` as Server-Sent Events (200 expected unless `expectStatus`). */
export async function openEventStream(
  client: TenantClient | null,
  query = '',
  options: { headers?: Record<string, string>; path?: string; token?: string | null } = {},
): Promise<EventStream> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  const token = options.token === undefined ? client?.token : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const path = options.path ?? `${client?.base ?? ''}/changes/stream`;
  const response = await SELF.fetch(`${ORIGIN}${path}${query}`, { headers });
  const inbox = new Inbox<SseMessage>();
  const reader = response.status === 200 && response.body ? parseEvents(response.body, inbox) : undefined;
  if (!reader) inbox.end();
  return {
    response,
    next: async ({ heartbeats = false } = {}) => {
      for (;;) {
        const message = await inbox.next();
        if (message?.event !== 'heartbeat' || heartbeats) return message;
      }
    },
    close: async () => {
      await reader?.cancel().catch(() => undefined);
    },
  };
}

/** The changes a stream replays before `ready`, and the cursor `ready` gives. */
export async function readUntilReady(stream: EventStream): Promise<{ items: FeedItem[]; ids: string[]; cursor: string }> {
  const items: FeedItem[] = [];
  const ids: string[] = [];
  for (;;) {
    const message = await stream.next();
    if (!message) throw new Error('The stream ended before it was ready.');
    if (message.event === 'ready') return { items, ids, cursor: (JSON.parse(message.data) as { cursor: string }).cursor };
    expect(message.event).toBe('change');
    items.push(JSON.parse(message.data) as FeedItem);
    ids.push(message.id ?? '');
  }
}

/** The next `count` changes (fails if anything else comes first). */
export async function readChangesFrom(stream: EventStream, count: number): Promise<{ items: FeedItem[]; ids: string[] }> {
  const items: FeedItem[] = [];
  const ids: string[] = [];
  while (items.length < count) {
    const message = await stream.next();
    if (!message) throw new Error(`The stream ended after ${items.length} of ${count} changes.`);
    expect(message.event, message.data).toBe('change');
    items.push(JSON.parse(message.data) as FeedItem);
    ids.push(message.id ?? '');
  }
  return { items, ids };
}

/** A WebSocket message of the live stream. */
export interface SocketMessage {
  readonly type: 'change' | 'ready' | 'end';
  readonly cursor?: string;
  readonly change?: FeedItem;
  readonly reason?: string;
  readonly detail?: string;
}

interface RuntimeSocket {
  accept(): void;
  addEventListener(type: 'message', listener: (event: { data?: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code?: number; reason?: string }) => void): void;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveSocket {
  readonly response: Response;
  next(): Promise<SocketMessage | undefined>;
  /** The close code once the server closed it. */
  closed(): Promise<number | undefined>;
  send(text: string): void;
  close(): void;
}

/** `GET /changes/stream` as a WebSocket upgrade (101 expected unless refused). */
export async function openLiveSocket(client: TenantClient, query = '', token: string | null = client.token): Promise<LiveSocket> {
  const headers: Record<string, string> = { upgrade: 'websocket' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await SELF.fetch(`${ORIGIN}${client.base}/changes/stream${query}`, { headers });
  const inbox = new Inbox<SocketMessage>();
  const socket = (response as Response & { webSocket?: RuntimeSocket | null }).webSocket ?? undefined;
  let closeCode: number | undefined;
  const closing = new Promise<number | undefined>((resolve) => {
    if (!socket) return resolve(undefined);
    socket.accept();
    socket.addEventListener('message', (event) => {
      if (typeof event.data === 'string' && event.data !== 'pong') inbox.push(JSON.parse(event.data) as SocketMessage);
    });
    socket.addEventListener('close', (event) => {
      closeCode = event.code;
      inbox.end();
      resolve(closeCode);
    });
  });
  if (!socket) inbox.end();
  return {
    response,
    next: () => inbox.next(),
    closed: () => closing,
    send: (text) => socket?.send(text),
    close: () => socket?.close(1000, 'done'),
  };
}

/**
 * A request to the live stream as `call` answers it (the contract checked): a 200 stream is read up to `ready` and
 * closed, its body `{items, cursor}`; any other answer as it came.
 */
export async function callStream(path: string, token: string | null, headers: Record<string, string> = {}): Promise<CallResult> {
  const stream = await openEventStream(null, '', { path, token, headers });
  const { response } = stream;
  if (response.status !== 200) {
    const text = await response.text();
    await assertDocumentedResponse('GET', `${ORIGIN}${path}`, response.status, response.headers, text);
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown), text };
  }
  await assertDocumentedResponse('GET', `${ORIGIN}${path}`, response.status, response.headers, '');
  const { items, cursor } = await readUntilReady(stream);
  await stream.close();
  return { status: 200, headers: response.headers, body: { items, cursor }, text: '' };
}
