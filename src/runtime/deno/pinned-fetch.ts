/**
 * Webhook POSTs under Deno, connected to the addresses the DNS rule checked (Platform.pinnedFetch). Deno's fetch
 * resolves the URL's host itself, which would leave a window between the check (DNS-over-HTTPS) and the connection in
 * which another answer (DNS rebinding) sends the POST to a private address. `Deno.createHttpClient` has no resolver to
 * override, and its `tcp` transport speaks plain HTTP even to an `https://` URL; its `proxy` does tunnel TLS. So the
 * POST goes through a CONNECT proxy inside this process (127.0.0.1, an ephemeral port): the request's client carries a
 * one-time credential that names the checked addresses, and the proxy opens the TCP connection to one of those, never
 * resolving the name. TLS runs end to end inside the tunnel: SNI, the certificate's check and `Host` name the URL's
 * host, as without the proxy. Only `https://` URLs are pinned (the only ones whose host is a name: `http://` is for
 * development loopback hosts, which are not resolved).
 */
import { requireDenoRuntime } from './runtime';
import type { DenoConn, DenoListener } from './runtime';
import type { PinnedFetch } from '../platform';

/** The most a CONNECT request's head may take. */
const MAX_HEAD_BYTES = 8192;
/** How long a client of the proxy may take to send its CONNECT request. */
const HEAD_TIMEOUT_MS = 5_000;
/** How long the tunnel's connection to the receiver may take to open, per address. */
const CONNECT_TIMEOUT_MS = 10_000;

interface Route {
  /** `host:port` the CONNECT must name. */
  readonly target: string;
  readonly port: number;
  readonly addresses: readonly string[];
}

/** One-time credentials of requests under way: what each may connect to. */
const routes = new Map<string, Route>();
let listener: DenoListener | undefined;

const encoder = new TextEncoder();

function closeQuietly(conn: DenoConn): void {
  try {
    conn.close();
  } catch {
    // closed already
  }
}

/** The CONNECT request's head (up to the blank line), or undefined when the client goes or sends too much. */
async function readHead(conn: DenoConn): Promise<string | undefined> {
  const buffer = new Uint8Array(MAX_HEAD_BYTES);
  let length = 0;
  while (length < MAX_HEAD_BYTES) {
    const read = await conn.read(buffer.subarray(length));
    if (read === null) return undefined;
    length += read;
    const text = new TextDecoder().decode(buffer.subarray(0, length));
    if (text.includes('\r\n\r\n')) return text;
  }
  return undefined;
}

/** A TCP connection to the first of the addresses that accepts one. */
async function connectToAny(addresses: readonly string[], port: number): Promise<DenoConn> {
  let failure: unknown;
  for (const address of addresses) {
    try {
      return await requireDenoRuntime().connect({ hostname: address, port, signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) });
    } catch (error) {
      failure = error;
    }
  }
  throw failure instanceof Error ? failure : new Error('no address could be connected to');
}

async function tunnel(client: DenoConn): Promise<void> {
  // A connection that does not send its head in time (not one of this process's requests) is closed.
  const timer = setTimeout(() => closeQuietly(client), HEAD_TIMEOUT_MS);
  const head = await readHead(client).catch(() => undefined);
  clearTimeout(timer);
  const target = head === undefined ? undefined : /^CONNECT (\S+) HTTP\/1\.1\r\n/.exec(head)?.[1];
  const credential = head === undefined ? undefined : /\r\nproxy-authorization: basic ([A-Za-z0-9+/=]+)\r\n/i.exec(head)?.[1];
  const token = credential === undefined ? undefined : atob(credential).split(':')[0];
  const route = token === undefined ? undefined : routes.get(token);
  if (token !== undefined) routes.delete(token);
  if (!route || target?.toLowerCase() !== route.target) {
    await client.write(encoder.encode('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n')).catch(() => 0);
    closeQuietly(client);
    return;
  }
  let upstream: DenoConn;
  try {
    upstream = await connectToAny(route.addresses, route.port);
  } catch {
    await client.write(encoder.encode('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n')).catch(() => 0);
    closeQuietly(client);
    return;
  }
  await client.write(encoder.encode('HTTP/1.1 200 Connection Established\r\n\r\n'));
  const close = () => {
    closeQuietly(client);
    closeQuietly(upstream);
  };
  // Either direction ending (the answer read, the body cancelled, a reset) closes both connections.
  void Promise.race([client.readable.pipeTo(upstream.writable), upstream.readable.pipeTo(client.writable)])
    .catch(() => undefined)
    .finally(close);
}

function startProxy(): DenoListener {
  const started = requireDenoRuntime().listen({ hostname: '127.0.0.1', port: 0 });
  // It never keeps the process alive on its own.
  started.unref();
  void (async () => {
    try {
      for await (const conn of started) void tunnel(conn).catch(() => closeQuietly(conn));
    } catch {
      // the listener closed
    }
  })();
  return started;
}

/** Stops the proxy (the host's close). */
export function closePinnedProxy(): void {
  listener?.close();
  listener = undefined;
  routes.clear();
}

/** The response, its body wrapped so that `done` runs once the body ends, fails or is cancelled. */
function finishingWith(response: Response, done: () => void): Response {
  const source = response.body;
  if (!source) {
    done();
    return response;
  }
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          controller.close();
          done();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        done();
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
      done();
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

export const fetchPinned: PinnedFetch = async (post, addresses, signal) => {
  const url = new URL(post.url);
  if (url.protocol !== 'https:') throw new Error('only https:// URLs are connected to checked addresses');
  const port = url.port === '' ? 443 : Number(url.port);
  listener ??= startProxy();
  const token = crypto.randomUUID();
  routes.set(token, { target: `${url.hostname.toLowerCase()}:${port}`, port, addresses });
  const deno = requireDenoRuntime();
  const client = deno.createHttpClient({
    proxy: { url: `http://127.0.0.1:${listener.addr.port}`, basicAuth: { username: token, password: 'pinned' } },
  });
  let closed = false;
  const finish = () => {
    routes.delete(token);
    if (closed) return;
    closed = true;
    client.close();
  };
  try {
    const init = { method: 'POST', body: post.body, headers: post.headers, redirect: 'manual', signal, client };
    const response = await fetch(post.url, init as RequestInit);
    return finishingWith(response, finish);
  } catch (error) {
    finish();
    throw error;
  }
};
