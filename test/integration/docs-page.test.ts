/**
 * GET /docs and its static assets, in both runs: Workers `[assets]` through the ASSETS binding (the vitest
 * integration's SELF is the Worker alone, without the assets in front), and the Deno server's public/. That
 * assets are answered before the Worker, at their paths, is checked in Chromium against `wrangler dev` and the
 * Deno server by test/browser/docs-page.test.ts (npm run test:browser).
 */
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../src/openapi/docs-page';
import { call, ORIGIN } from '../helpers/api';

const ASSET_REFERENCE = /(?:src|href)="([^"]*)"/g;
const HASHED_ASSET = /^\/assets\/[a-z-]+\.[0-9a-f]{16}\.(js|css|png)$/;

async function readPage(): Promise<{ html: string; headers: Headers; references: string[] }> {
  const result = await call<string>('GET', '/docs');
  expect(result.status).toBe(200);
  return {
    html: result.text,
    headers: result.headers,
    references: [...result.text.matchAll(ASSET_REFERENCE)].map((match) => match[1] ?? ''),
  };
}

describe('GET /docs', () => {
  it('is an HTML page with a Content-Security-Policy that allows only this origin, revalidated on every load', async () => {
    const { headers } = await readPage();
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(DOCS_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self';/);
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*|'unsafe-/);
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('loads its scripts and styles from this origin only, by content-hashed names', async () => {
    const { html, references } = await readPage();
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
    const assets = references.filter((reference) => reference.startsWith('/assets/'));
    expect(assets).toHaveLength(5);
    for (const asset of assets) expect(asset).toMatch(HASHED_ASSET);
    expect(references.filter((reference) => !reference.startsWith('/assets/'))).toEqual(['/openapi.json', '/openapi.json']);
    expect(html).toContain('"documentUrl":"/openapi.json"');
  });

  it('serves every asset it names as a static asset, cached for a year', async () => {
    const { references } = await readPage();
    const types: Record<string, string> = { js: 'text/javascript', css: 'text/css', png: 'image/png' };
    for (const asset of references.filter((reference) => reference.startsWith('/assets/'))) {
      const response = await env.ASSETS.fetch(`${ORIGIN}${asset}`);
      const body = await response.arrayBuffer();
      expect(response.status, asset).toBe(200);
      expect(body.byteLength, asset).toBeGreaterThan(0);
      expect(response.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type'), asset).toContain(types[asset.slice(asset.lastIndexOf('.') + 1)] ?? '?');
    }
  });

  it('shows no token hint outside development (APP_ENV is "production" here)', async () => {
    const { html } = await readPage();
    expect(html).not.toContain('npm run');
    expect(html).not.toContain('tokenHint');
    expect(html).not.toContain('docs-token-notice');
  });

  it('does not answer a missing asset with a file', async () => {
    const response = await SELF.fetch(`${ORIGIN}/assets/swagger-ui-bundle.0000000000000000.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    // Not cached for a year as the files are (public/_headers names each built file, not /assets/*).
    expect(response.headers.get('cache-control') ?? '').not.toContain('immutable');
  });
});
