/// <reference lib="dom" />
/**
 * The API reference page in a real browser (`npm run test:browser`): Chromium from Debian's packages (installed by
 * `npm run browser:install`; CHROMIUM_PATH names another binary) driven by playwright-core, against `/docs` as
 * `npm start` and `npm run start:deno` serve it, each on a free port with fresh local state. For
 * each: nothing leaves the API's origin (no request, no Content-Security-Policy violation), every operation of
 * /openapi.json is listed, the bearer scheme and the development token hint are in the Authorize dialog, and "Try it
 * out" with a pasted token gets 200. The Workers run refreshes the README's screenshot (docs/images/).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserTargets, stopBrowserTargets } from './servers.js';
import type { BrowserTarget, LocalServer } from './servers.js';

const SCREENSHOT = fileURLToPath(new URL('../../docs/images/api-reference.png', import.meta.url));
const OUTPUT_DIR = fileURLToPath(new URL('../../test-results/browser/', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const TRY_PATH = '/api/{tenantKey}/{orgKey}/operations/emailTemplates/odata';

interface Target extends BrowserTarget {
  readonly screenshot?: string;
}

const TARGETS: readonly Target[] = [
  // 8787, npm start's own port, when free: the README's screenshot shows the server list as a reader sees it.
  { name: 'npm start', script: 'start', port: 8787, env: (dir) => ({ PERSIST_TO: dir }), screenshot: SCREENSHOT },
  { name: 'npm run start:deno', script: 'start:deno', port: 18791, env: (dir) => ({ DENO_DB_PATH: `${dir}/erp.sqlite` }) },
];

/** What a page did: every request it sent, every CSP violation, every script error. */
interface PageLog {
  readonly requests: string[];
  /** Each /assets/ answer: "<status> <cache-control>". */
  readonly assets: string[];
  readonly violations: string[];
  readonly errors: string[];
}

const servers = new Map<string, LocalServer>();
let browser: Browser;
let token: string;

beforeAll(async () => {
  ({ browser, token } = await startBrowserTargets(TARGETS, servers));
  mkdirSync(OUTPUT_DIR, { recursive: true });
}, 150_000);

afterAll(() => stopBrowserTargets(browser, servers));

async function openDocs(baseUrl: string): Promise<{ page: Page; log: PageLog }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const log: PageLog = { requests: [], assets: [], violations: [], errors: [] };
  context.on('request', (request) => log.requests.push(request.url()));
  context.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/'))
      log.assets.push(`${response.status()} ${response.headers()['cache-control']}`);
  });
  await context.exposeBinding('reportViolation', (_source, violation: string) => log.violations.push(violation));
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.effectiveDirective} ${event.blockedURI}`),
    ),
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => log.errors.push(error.message));
  const response = await page.goto(`${baseUrl}/docs`);
  expect(response?.status()).toBe(200);
  await page.locator('.opblock').first().waitFor();
  return { page, log };
}

async function readDocumentedOperations(baseUrl: string): Promise<string[]> {
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe.each(TARGETS)('/docs under $name', (target) => {
  const server = () => {
    const found = servers.get(target.name);
    if (!found) throw new Error(`${target.name} did not start`);
    return found;
  };

  it('renders every operation of /openapi.json from this origin alone', async () => {
    const { baseUrl } = server();
    const { page, log } = await openDocs(baseUrl);
    const expected = await readDocumentedOperations(baseUrl);
    const listed = await page
      .locator('.opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (block) =>
            `${block.querySelector('.opblock-summary-method')?.textContent ?? ''} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`,
        ),
      );
    expect(listed.length).toBe(expected.length);
    expect([...listed].sort()).toEqual([...expected].sort());
    expect(await page.locator('#docs-token-notice').textContent()).toContain('npm run -s token -- --tenant demo --org demo');
    // Only on port 8787 (another npm start may hold it): elsewhere the page's server list would show a test port.
    if (target.screenshot && new URL(baseUrl).port === '8787') await page.screenshot({ path: target.screenshot });
    await page.screenshot({ path: `${OUTPUT_DIR}${target.script.replace(':', '-')}-overview.png` });

    const origin = new URL(baseUrl).origin;
    expect(log.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(log.requests).toContain(`${baseUrl}/openapi.json`);
    // The page's scripts, styles and icon: static assets, answered before the application, cached for a year.
    expect(log.assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of log.assets) expect(asset).toBe('200 public, max-age=31536000, immutable');
    expect(log.violations).toEqual([]);
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it('shows the bearer scheme with the token hint, and "Try it out" with a pasted token answers 200', async () => {
    const { baseUrl } = server();
    const { page, log } = await openDocs(baseUrl);

    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.waitFor();
    const text = (await dialog.textContent())?.replace(/\s+/g, ' ');
    expect(text).toContain('bearerAuth (http, Bearer)');
    // The token endpoint's client authentication is a scheme of its own, without the hint.
    expect(text).toContain('clientBasic (http, Basic)');
    const hint = dialog.locator('[data-testid="token-hint"]');
    expect(await hint.textContent()).toContain('npm run -s token -- --tenant demo --org demo');
    const bearer = dialog.locator('.auth-container', { has: page.locator('#auth-bearer-value') });
    await bearer.locator('#auth-bearer-value').fill(token);
    await page.screenshot({ path: `${OUTPUT_DIR}${target.script.replace(':', '-')}-authorize.png` });
    await bearer.locator('.auth-btn-wrapper .authorize').click();
    // Authorized, the bearer form no longer has its input: close the dialog itself.
    await dialog.locator('.close-modal').click();

    const operation = page.locator('.opblock-get', { has: page.locator(`.opblock-summary-path[data-path="${TRY_PATH}"]`) });
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('tr[data-param-name="tenantKey"] input').fill('demo');
    await operation.locator('tr[data-param-name="orgKey"] input').fill('demo');
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/operations/emailTemplates/odata')),
      operation.locator('.btn.execute').click(),
    ]);
    expect(answer.status()).toBe(200);
    expect(new URL(answer.url()).origin).toBe(new URL(baseUrl).origin);
    expect(await answer.request().headerValue('authorization')).toBe(`Bearer ${token}`);
    const shown = operation.locator('.live-responses-table .response .response-col_status');
    await shown.first().waitFor();
    expect((await shown.first().textContent())?.trim()).toBe('200');
    await operation.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUTPUT_DIR}${target.script.replace(':', '-')}-try-it.png` });

    const origin = new URL(baseUrl).origin;
    expect(log.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(log.violations).toEqual([]);
    expect(log.errors).toEqual([]);
    await page.context().close();
  });
});
