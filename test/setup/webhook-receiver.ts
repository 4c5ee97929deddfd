/**
 * A webhook receiver on 127.0.0.1 for the tests (vitest globalSetup, Node): the API's handshakes and deliveries reach
 * it over real HTTP. `/hooks/<name>` answers the validation handshake (the token as body) and records every
 * delivery; a name with `-fail<N>` answers its first N deliveries 500, `-gone` answers 410, `-reject` 400, `-refuse` fails the
 * handshake. `GET /hooks/<name>/received?count=N` waits (at most 10 s) until N deliveries were answered 2xx and
 * lists every delivery received (headers, body, the status answered).
 *
 * A name with `-endless` answers the handshake (the token) and every delivery (200) with a body that does not end:
 * spaces, 64 KB at a time, until the client closes the connection (or, so that no test can hang on it, 64 MiB or 20 s
 * have gone by). `GET /hooks/<name>/streamed?count=N` waits (at most 10 s) until N such answers ended and lists them:
 * the bytes written and whether the client closed the connection before the end.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TestProject } from 'vitest/node';
import { readBody, startLocalServer } from './local-server.js';

interface Received {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly answered: number;
}

interface Streamed {
  readonly bytes: number;
  readonly closedByClient: boolean;
}

const ENDLESS_CAP_BYTES = 64 * 1024 * 1024;
const ENDLESS_CAP_MS = 20_000;
const SPACES = Buffer.alloc(64 * 1024, ' ');

/** `first`, then spaces until the client closes the connection (or the caps); `done` gets what was written. */
function answerEndlessly(response: ServerResponse, first: string, done: (streamed: Streamed) => void): void {
  const started = Date.now();
  let bytes = 0;
  let ended = false;
  const finish = (closedByClient: boolean) => {
    if (ended) return;
    ended = true;
    done({ bytes, closedByClient });
  };
  response.on('close', () => finish(!response.writableEnded));
  const pump = () => {
    while (!ended) {
      if (bytes >= ENDLESS_CAP_BYTES || Date.now() - started > ENDLESS_CAP_MS) {
        finish(false);
        response.end();
        return;
      }
      bytes += SPACES.length;
      if (!response.write(SPACES)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.write(first);
  pump();
}

declare module 'vitest' {
  export interface ProvidedContext {
    webhookReceiver: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const received = new Map<string, Received[]>();
  const streamed = new Map<string, Streamed[]>();
  const waiters = new Set<() => void>();
  const delivered = (name: string) => (received.get(name) ?? []).filter((entry) => entry.answered < 300).length;
  const wakeAll = () => {
    for (const wake of [...waiters]) wake();
    waiters.clear();
  };
  const recordStream = (name: string) => (entry: Streamed) => {
    streamed.set(name, [...(streamed.get(name) ?? []), entry]);
    wakeAll();
  };
  /** Waits (at most 10 s) until `ready()`. */
  const waitFor = async (ready: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!ready() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const match = /^\/hooks\/([A-Za-z0-9-]+)(\/received|\/streamed)?$/.exec(url.pathname);
    if (!match?.[1]) return response.writeHead(404).end();
    const name = match[1];
    const count = Number(url.searchParams.get('count') ?? 0);
    if (match[2] === '/received') {
      await waitFor(() => delivered(name) >= count);
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received.get(name) ?? []));
    }
    if (match[2] === '/streamed') {
      await waitFor(() => (streamed.get(name) ?? []).length >= count);
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(streamed.get(name) ?? []));
    }
    const body = await readBody(request);
    const token = url.searchParams.get('validationToken');
    const endless = name.includes('-endless');
    if (token !== null) {
      if (name.includes('-refuse')) return response.writeHead(200, { 'content-type': 'text/plain' }).end('not the token');
      if (endless) return answerEndlessly(response, token, recordStream(name));
      return response.writeHead(200, { 'content-type': 'text/plain' }).end(token);
    }
    const list = received.get(name) ?? [];
    const failures = Number(/-fail(\d+)/.exec(name)?.[1] ?? 0);
    const answered = name.includes('-gone') ? 410 : name.includes('-reject') ? 400 : list.length < failures ? 500 : 200;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
    list.push({ headers, body, answered });
    received.set(name, list);
    wakeAll();
    if (endless) return answerEndlessly(response, '', recordStream(name));
    return response.writeHead(answered).end();
  };

  const server = await startLocalServer(handle);
  project.provide('webhookReceiver', server.url);
  return () => server.close();
}
