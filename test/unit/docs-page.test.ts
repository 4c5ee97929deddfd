import { describe, expect, it } from 'vitest';
import { renderDocsPage } from '../../src/openapi/docs-page';

const assets = {
  swaggerScript: '/assets/swagger-ui-bundle.0123456789abcdef.js',
  swaggerStyle: '/assets/swagger-ui.0123456789abcdef.css',
  pageScript: '/assets/docs-page.0123456789abcdef.js',
  pageStyle: '/assets/docs-page.0123456789abcdef.css',
  icon: '/assets/favicon.0123456789abcdef.png',
};

function readConfig(html: string): { documentUrl: string; tokenHint?: { lines: ({ text: string } | { code: string })[] } } {
  const json = /<script type="application\/json" id="docs-config">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? 'null');
}

describe('renderDocsPage', () => {
  it('in development, says how to mint a token above the reference and in the Authorize dialog', () => {
    const html = renderDocsPage({ title: 'ERP Edge API', documentUrl: '/openapi.json', assets, development: true });
    expect(html).toContain('id="docs-token-notice"');
    expect(html).toContain('<code>npm run -s token -- --tenant demo --org demo</code>');
    const lines = readConfig(html).tokenHint?.lines ?? [];
    expect(lines).toContainEqual({ code: 'npm run -s token -- --tenant demo --org demo' });
    expect(lines).toContainEqual({ code: 'npm run -s token -- --tenant demo --org demo --scope "application admin"' });
  });

  it('in production, carries no hint at all', () => {
    const html = renderDocsPage({ title: 'ERP Edge API', documentUrl: '/openapi.json', assets, development: false });
    expect(readConfig(html)).toEqual({ documentUrl: '/openapi.json' });
    expect(html).not.toContain('npm run');
    expect(html).not.toContain('docs-token-notice');
  });

  it('keeps the embedded configuration inside its script element', () => {
    const html = renderDocsPage({ title: 'A & B', documentUrl: '/x</script><script>alert(1)</script>', assets, development: false });
    expect(html).toContain('<title>A &amp; B - API reference</title>');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(readConfig(html).documentUrl).toBe('/x</script><script>alert(1)</script>');
  });
});
