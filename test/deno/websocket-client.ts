/**
 * A WebSocket client for the Deno test run (Node 20 has no WebSocket global without a flag, and the test needs the
 * HTTP answer of a refused upgrade): the upgrade over node:http, then RFC 6455 frames by hand (text, close, ping,
 * pong; client frames masked; no extensions). What `SELF.fetch` answers for an upgrade under Deno: a response whose
 * `webSocket` behaves as the Workers runtime's (accept, addEventListener, send, close), or the refusal as it came.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

type Listener = (event: { data?: string; code?: number; reason?: string }) => void;

/** The client side of an open socket, shaped like the Workers runtime's WebSocket (what the tests use of it). */
class TestSocket {
  private readonly listeners = new Map<string, Listener[]>();
  private buffer = Buffer.alloc(0);
  private closed = false;

  /** `head`: what arrived with the upgrade's answer (the first frames may). */
  constructor(
    private readonly stream: Duplex,
    head: Buffer,
  ) {
    this.read(Buffer.from(head));
    stream.on('data', (chunk: Buffer) => this.read(chunk));
    stream.on('close', () => this.finish(1006, ''));
    stream.on('error', () => this.finish(1006, ''));
  }

  accept(): void {
    // Open already: the upgrade's answer was read.
  }

  addEventListener(type: 'message' | 'close', listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    // What arrived before anyone listened (frames that came with the upgrade's answer) is delivered now.
    const held = this.held.filter((entry) => entry.type === type);
    this.held = this.held.filter((entry) => entry.type !== type);
    for (const entry of held) listener(entry.event);
  }

  private held: { type: string; event: { data?: string; code?: number; reason?: string } }[] = [];

  private emit(type: string, event: { data?: string; code?: number; reason?: string }): void {
    const listeners = this.listeners.get(type) ?? [];
    if (listeners.length === 0) this.held.push({ type, event });
    for (const listener of listeners) listener(event);
  }

  private finish(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close', { code, reason });
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const frame = parseFrame(this.buffer);
      if (!frame) return;
      this.buffer = this.buffer.subarray(frame.size);
      if (frame.opcode === 1) this.emit('message', { data: frame.payload.toString('utf8') });
      else if (frame.opcode === 9) this.write(10, frame.payload);
      else if (frame.opcode === 8) {
        const code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
        if (!this.closed) this.write(8, frame.payload.subarray(0, 2));
        this.finish(code, frame.payload.subarray(2).toString('utf8'));
        this.stream.end();
      }
    }
  }

  private write(opcode: number, payload: Buffer): void {
    if (this.stream.destroyed) return;
    const mask = randomBytes(4);
    const length = payload.length;
    const head = length < 126 ? Buffer.from([0x80 | opcode, 0x80 | length]) : Buffer.alloc(4);
    if (length >= 126) {
      head[0] = 0x80 | opcode;
      head[1] = 0x80 | 126;
      head.writeUInt16BE(length, 2);
    }
    const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0)));
    this.stream.write(Buffer.concat([head, mask, masked]));
  }

  send(text: string): void {
    this.write(1, Buffer.from(text, 'utf8'));
  }

  close(code = 1000, reason = ''): void {
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    this.write(8, payload);
  }
}

/** One complete server frame at the start of `buffer` (unmasked, lengths up to 2^53), or undefined. */
function parseFrame(buffer: Buffer): { opcode: number; payload: Buffer; size: number } | undefined {
  if (buffer.length < 2) return undefined;
  const opcode = (buffer[0] ?? 0) & 0x0f;
  let length = (buffer[1] ?? 0) & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return undefined;
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return undefined;
    length = Number(buffer.readBigUInt64BE(2));
    offset = 10;
  }
  if (buffer.length < offset + length) return undefined;
  return { opcode, payload: buffer.subarray(offset, offset + length), size: offset + length };
}

/** The upgrade's answer: 101 with the socket, or the refusal as a Response. */
export function openTestSocket(url: string, headers: Headers): Promise<Response> {
  const upgrade = new Headers(headers);
  upgrade.set('connection', 'Upgrade');
  upgrade.set('upgrade', 'websocket');
  upgrade.set('sec-websocket-version', '13');
  upgrade.set('sec-websocket-key', randomBytes(16).toString('base64'));
  upgrade.delete('sec-websocket-extensions');
  return new Promise((resolve, reject) => {
    const sent: Record<string, string> = {};
    upgrade.forEach((value, name) => (sent[name] = value));
    const outgoing = httpRequest(url, { method: 'GET', headers: sent });
    outgoing.on('upgrade', (answer: IncomingMessage, stream: Duplex, head: Buffer) => {
      const socket = new TestSocket(stream, head);
      const response = new Response(null, { status: 200, headers: toHeaders(answer) });
      Object.defineProperty(response, 'status', { value: 101 });
      Object.defineProperty(response, 'webSocket', { value: socket });
      resolve(response);
    });
    outgoing.on('response', (answer: IncomingMessage) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode ?? 500, headers: toHeaders(answer) })),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function toHeaders(answer: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return headers;
}
