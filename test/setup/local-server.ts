/** The tests' local HTTP services (vitest globalSetup, Node): a server on 127.0.0.1 and a request body reader. */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Serves `handle` on a free port of 127.0.0.1 (a failing handler answers 500): its base URL and how to close it. */
export async function startLocalServer(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<unknown>,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The local test server has no port.');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
