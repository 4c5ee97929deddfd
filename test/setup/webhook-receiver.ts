/**
 * A webhook receiver on 127.0.0.1 for the tests (vitest globalSetup, Node): the API's handshakes and deliveries reach
 * it over real HTTP. `/hooks/<name>` answers the validation handshake (the token as body) and records every
 * delivery; a name with `-fail<N>` answers its first N deliveries 500, `-gone` answers 410, `-reject` 400, `-refuse` fails the
 * handshake. `GET /hooks/<name>/received?count=N` waits (at most 10 s) until N deliveries were answered 2xx and
 * lists every delivery received (headers, body, the status answered).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TestProject } from 'vitest/node';
import { readBody, startLocalServer } from './local-server.js';

interface Received {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly answered: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    webhookReceiver: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const received = new Map<string, Received[]>();
  const waiters = new Set<() => void>();
  const delivered = (name: string) => (received.get(name) ?? []).filter((entry) => entry.answered < 300).length;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const match = /^\/hooks\/([A-Za-z0-9-]+)(\/received)?$/.exec(url.pathname);
    if (!match?.[1]) return response.writeHead(404).end();
    const name = match[1];
    if (match[2]) {
      const count = Number(url.searchParams.get('count') ?? 0);
      const deadline = Date.now() + 10_000;
      while (delivered(name) < count && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received.get(name) ?? []));
    }
    const body = await readBody(request);
    const token = url.searchParams.get('validationToken');
    if (token !== null) {
      if (name.includes('-refuse')) return response.writeHead(200, { 'content-type': 'text/plain' }).end('not the token');
      return response.writeHead(200, { 'content-type': 'text/plain' }).end(token);
    }
    const list = received.get(name) ?? [];
    const failures = Number(/-fail(\d+)/.exec(name)?.[1] ?? 0);
    const answered = name.includes('-gone') ? 410 : name.includes('-reject') ? 400 : list.length < failures ? 500 : 200;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
    list.push({ headers, body, answered });
    received.set(name, list);
    for (const wake of [...waiters]) wake();
    waiters.clear();
    return response.writeHead(answered).end();
  };

  const server = await startLocalServer(handle);
  project.provide('webhookReceiver', server.url);
  return () => server.close();
}
