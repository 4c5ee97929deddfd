/**
 * The Deno delivery queue is persisted (coordinators.sqlite in the data directory): a server stopped while a delivery
 * is pending (its retry waiting in the queue) delivers it once a new server starts on the same data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, expect, inject, it } from 'vitest';
import { DENO_TEST_JWT_SECRET, launchDenoServer } from '../deno/server.js';
import type { DenoTestServer } from '../deno/server.js';

interface Received {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly answered: number;
}

const directory = mkdtempSync(join(tmpdir(), 'erp-deno-restart-'));
// A failed delivery is retried after 2 to 4 s: long enough to stop the server before it.
const ENV = { WEBHOOK_RETRY_BASE_SECONDS: '4' };
let server: DenoTestServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(directory, { recursive: true, force: true });
});

async function readReceived(hook: string, count: number): Promise<Received[]> {
  return (await fetch(`${hook}/received?count=${count}`)).json() as Promise<Received[]>;
}

it('delivers after a restart what was pending when the server stopped', async () => {
  const suffix = crypto.randomUUID().slice(0, 8);
  const base = `/api/restart-${suffix}/o1`;
  const token = await new SignJWT({ scope: 'application admin', orgs: [`restart-${suffix}/o1`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('restart-admin')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(DENO_TEST_JWT_SECRET));
  const post = (path: string, body: unknown) =>
    fetch(`${server?.baseUrl}${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  server = await launchDenoServer(ENV, directory);
  // The receiver answers the first delivery 500 (`-fail1`), every later one 200.
  const hook = `${inject('webhookReceiver')}/hooks/restart-fail1-${suffix}`;
  const subscribed = await post('/subscriptions', { notificationUrl: hook, resource: '*' });
  expect(subscribed.status, await subscribed.clone().text()).toBe(201);
  const template = { templateKey: 'restart', subject: 'Hi', emailTemplateType: 1, notificationBody: '<p>x</p>', culture: 'en-US' };
  expect((await post('/operations/emailTemplates', template)).status).toBe(201);

  const deadline = Date.now() + 10_000;
  while ((await readReceived(hook, 0)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await server.stop();
  server = undefined;
  const beforeRestart = await readReceived(hook, 0);
  expect(beforeRestart.map((delivery) => delivery.answered)).toEqual([500]);

  server = await launchDenoServer(ENV, directory);
  const received = await readReceived(hook, 1);
  expect(received.map((delivery) => delivery.answered)).toEqual([500, 200]);
  // The same batch (same webhook-id) with the template's creation.
  expect(received[1]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id']);
  expect(JSON.parse(received[1]?.body ?? '{}')).toMatchObject({ value: [{ changeType: 'created', key: 'restart' }] });
});
