#!/usr/bin/env node
// npm run webhook:receiver: a webhook receiver for local development on http://127.0.0.1:$WEBHOOK_RECEIVER_PORT
// (default 8790), any path. It answers the subscription handshake (the validationToken as body) and prints each
// delivery it verified (Standard Webhooks signature, with the `standardwebhooks` package) one event a line; a
// delivery that does not verify is answered 401 and printed as such.
// The signing secrets (whsec_…, answered once when a subscription is created): ERP_WEBHOOK_SECRET, and every line
// of the file .webhook-secrets (git-ignored; read at each delivery, so a subscription made after the start works).
import { Buffer } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { stopOnSignalsAndParent } from './lifecycle.mjs';

export const SECRETS_FILE = fileURLToPath(new URL('../.webhook-secrets', import.meta.url));
const host = '127.0.0.1';
const port = Number(process.env.WEBHOOK_RECEIVER_PORT ?? 8790);

function readSecrets() {
  const secrets = [];
  if (process.env.ERP_WEBHOOK_SECRET) secrets.push(process.env.ERP_WEBHOOK_SECRET.trim());
  if (existsSync(SECRETS_FILE))
    for (const line of readFileSync(SECRETS_FILE, 'utf8').split('\n')) if (line.trim().startsWith('whsec_')) secrets.push(line.trim());
  return secrets;
}

/** The payload if one of the secrets verifies the delivery, else undefined. */
function verify(body, headers) {
  for (const secret of readSecrets()) {
    try {
      return new Webhook(secret).verify(body, headers);
    } catch {
      // another secret, maybe
    }
  }
  return undefined;
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', `http://${host}`);
  const token = url.searchParams.get('validationToken');
  if (token !== null) {
    console.log(`handshake ${url.pathname}: answered the validation token`);
    return response.writeHead(200, { 'content-type': 'text/plain' }).end(token);
  }
  if (request.method !== 'POST') return response.writeHead(405).end();
  const body = await readBody(request);
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  const payload = verify(body, headers);
  if (!payload) {
    console.log(
      `delivery ${headers['webhook-id'] ?? '?'} NOT verified (answered 401): put the subscription's secret in .webhook-secrets or ERP_WEBHOOK_SECRET`,
    );
    return response.writeHead(401).end();
  }
  for (const event of payload.value ?? [])
    console.log(
      `delivery ${headers['webhook-id']} verified: ${event.changeType} ${event.resource} ${event.key} v${event.version} (${event.occurredOn})`,
    );
  return response.writeHead(204).end();
});

server.on('error', (error) => {
  console.error(
    error.code === 'EADDRINUSE'
      ? `Port ${port} on ${host} is in use (another webhook receiver?). Use another: WEBHOOK_RECEIVER_PORT=${port + 1} npm run webhook:receiver`
      : String(error),
  );
  process.exit(1);
});
server.listen(port, host, () => {
  console.log(`Webhook receiver on http://${host}:${port}/ (any path); secrets from .webhook-secrets and ERP_WEBHOOK_SECRET`);
});
// Stops at once: open keep-alive connections (the API's deliveries) are closed, not waited for.
stopOnSignalsAndParent(() => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
