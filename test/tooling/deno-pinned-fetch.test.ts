/**
 * Under Deno a webhook POST connects to the addresses the DNS rule checked (src/runtime/deno/pinned-fetch.ts), not to
 * whatever a new lookup of the name answers, while TLS still names the URL's host. A probe run under Deno
 * (test/deno-host/pinned-post.ts) POSTs to https://pinned.hooks.example:<port>/, a name no resolver here knows, with
 * 127.0.0.1 as the checked address; a receiver with that name's certificate (test/deno-host/pinned-tls/) listens there.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildDenoEnv, resolveDenoExecutable } from '../../scripts/deno-bin.mjs';

const TLS = new URL('../deno-host/pinned-tls/', import.meta.url);
const PROBE = fileURLToPath(new URL('../deno-host/pinned-post.ts', import.meta.url));

interface Seen {
  readonly host: string | undefined;
  readonly serverName: string | false;
  readonly body: string;
}

const seen: Seen[] = [];
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer(
    { key: readFileSync(new URL('receiver.key', TLS)), cert: readFileSync(new URL('receiver.pem', TLS)) },
    (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const socket = request.socket as { servername?: string | false };
        seen.push({ host: request.headers.host, serverName: socket.servername ?? false, body });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('received');
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Answer = { status?: number; text?: string; error?: string };

/** The probe's answer: what postToReceiver answered for `url`, connected to `addresses`. */
function post(url: string, addresses: string[]): Promise<Answer> {
  const args = [
    'run',
    '--no-prompt',
    '--unstable-sloppy-imports',
    '--allow-net',
    '--allow-env',
    '--allow-read',
    PROBE,
    url,
    JSON.stringify(addresses),
  ];
  const env = buildDenoEnv({ DENO_CERT: fileURLToPath(new URL('ca.pem', TLS)) });
  return new Promise((resolve, reject) => {
    execFile(resolveDenoExecutable(), args, { env, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Answer);
    });
  });
}

it('connects to the checked address; TLS and Host name the URL host', { timeout: 60_000 }, async () => {
  const url = `https://pinned.hooks.example:${port}/hook?a=1`;
  expect(await post(url, ['127.0.0.1'])).toEqual({ status: 200, text: 'received' });
  expect(seen.at(-1)).toEqual({ host: `pinned.hooks.example:${port}`, serverName: 'pinned.hooks.example', body: '{"value":[]}' });
  // The next checked address when the first accepts no connection.
  expect(await post(url, ['127.0.0.2', '127.0.0.1'])).toEqual({ status: 200, text: 'received' });
  expect(seen).toHaveLength(2);
});

it('never resolves the name itself, and still checks the certificate against it', { timeout: 60_000 }, async () => {
  // Without checked addresses the name is resolved the usual way, and this one resolves nowhere.
  expect((await post(`https://pinned.hooks.example:${port}/hook`, [])).error).toMatch(/^network error/);
  // The connection goes to the checked address, but the certificate there is not the URL host's: refused.
  expect((await post(`https://other.hooks.example:${port}/hook`, ['127.0.0.1'])).error).toMatch(/^network error/);
  expect(seen).toHaveLength(2);
});
