/// <reference lib="dom" />
/**
 * A live stream in a real browser (`npm run test:browser`): docs/live.md's browser example, run as it is written (its
 * token pasted in) in Chromium on `/docs` of `npm start` and `npm run start:deno`, opens the stream with
 * `EventSource` (a stream ticket: it cannot send headers); a change then made through the API reaches the page's
 * console as the change feed has it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserTargets, stopBrowserTargets } from './servers.js';
import type { BrowserTarget, LocalServer } from './servers.js';

const LIVE_DOC = fileURLToPath(new URL('../../docs/live.md', import.meta.url));
const API = '/api/demo/demo';

const TARGETS: readonly BrowserTarget[] = [
  { name: 'npm start', script: 'start', port: 18793, env: (dir) => ({ PERSIST_TO: dir }) },
  { name: 'npm run start:deno', script: 'start:deno', port: 18794, env: (dir) => ({ DENO_DB_PATH: `${dir}/erp.sqlite` }) },
];

interface FeedItem {
  readonly resource: string;
  readonly changeType: string;
  readonly recordId: string;
  readonly key: string;
}

/** The `js` block docs/live.md marks as the browser example. */
function readExample(): string {
  const text = readFileSync(LIVE_DOC, 'utf8');
  const block = /<!-- live-example[^>]*-->\n```js\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error('docs/live.md has no browser example block');
  return block;
}

/** A page of the emailTemplates change feed (1,000 items at most). */
async function readFeed(baseUrl: string, query: string): Promise<{ items: FeedItem[]; cursor: string }> {
  const separator = query ? '&' : '?';
  const answer = await fetch(`${baseUrl}${API}/changes${query}${separator}resource=operations/emailTemplates&$top=1000`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { items: FeedItem[]; cursor: string };
}

const servers = new Map<string, LocalServer>();
let browser: Browser;
let token: string;

beforeAll(async () => {
  ({ browser, token } = await startBrowserTargets(TARGETS, servers));
}, 150_000);

afterAll(() => stopBrowserTargets(browser, servers));

describe.each(TARGETS)('EventSource under $name', (target) => {
  it("docs/live.md's example, pasted on /docs, prints a change made through the API", async () => {
    const server = servers.get(target.name);
    if (!server) throw new Error(`${target.name} did not start`);
    const { baseUrl } = server;
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const changes: FeedItem[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (message.text().startsWith('change'))
        void message
          .args()[1]
          ?.jsonValue()
          .then((item: FeedItem) => changes.push(item));
    });
    expect((await page.goto(`${baseUrl}/docs`))?.status()).toBe(200);

    // The stream answers (the object holds it) before the write: what commits afterwards reaches it.
    const opened = page.waitForResponse((response) => response.url().includes('/changes/stream?ticket='));
    await page.evaluate(readExample().replace('PASTE-YOUR-TOKEN', token));
    const stream = await opened;
    expect(stream.status()).toBe(200);
    expect(stream.headers()['content-type']).toMatch(/^text\/event-stream/);
    expect(new URL(stream.url()).origin).toBe(new URL(baseUrl).origin);

    let before = (await readFeed(baseUrl, '')).cursor;
    for (
      let page = await readFeed(baseUrl, `?since=${encodeURIComponent(before)}`);
      page.cursor !== before;
      page = await readFeed(baseUrl, `?since=${encodeURIComponent(before)}`)
    )
      before = page.cursor;
    const key = `live-${target.script.replace(':', '-')}-${Date.now()}`;
    const created = await fetch(`${baseUrl}${API}/operations/emailTemplates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateKey: key, subject: 'Live', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' }),
    });
    expect(created.status).toBe(201);
    const id = (await created.json()) as string;

    await expect.poll(() => changes.find((item) => item.key === key), { timeout: 20_000 }).toBeDefined();
    expect(changes.find((item) => item.key === key)).toMatchObject({
      resource: 'operations/emailTemplates',
      changeType: 'created',
      recordId: id,
    });
    // As the change feed has it.
    const feed = await readFeed(baseUrl, `?since=${encodeURIComponent(before)}`);
    expect(feed.items.map((item) => item.key)).toEqual([key]);
    expect(changes.find((item) => item.key === key)).toEqual(feed.items[0]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
