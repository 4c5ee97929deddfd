/**
 * `GET /docs`: the document rendered for people by Swagger UI, from this API's own static assets (no other origin:
 * see DOCS_CONTENT_SECURITY_POLICY). On a development server the page shows how to mint a token.
 */
import type { DocsAssets } from './docs-assets';

/** Everything from this origin; `data:` images only for the icons inlined in Swagger UI's stylesheet. */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A line of the token hint: a sentence, or a command to run. */
type HintLine = { readonly text: string } | { readonly code: string };

interface DocsPageOptions {
  readonly title: string;
  readonly documentUrl: string;
  readonly assets: DocsAssets;
  /** A development server: the page shows how to mint a token, above the reference and in the Authorize dialog. */
  readonly development: boolean;
}

const TOKEN_COMMAND = 'npm run -s token -- --tenant demo --org demo';

/** How to get a token for the local server (`npm start`, `npm run start:deno`): never on a production page. */
const DEVELOPMENT_TOKEN_HINT: readonly HintLine[] = [
  { text: 'Development server: mint a token in a terminal in the project folder, then paste it here (without "Bearer "):' },
  { code: TOKEN_COMMAND },
  { text: 'It is valid for tenantKey demo and orgKey demo (the demo data). To manage reference data, add the admin scope:' },
  { code: 'npm run -s token -- --tenant demo --org demo --scope "application admin"' },
];

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** JSON inside <script type="application/json">: `<` escaped so that no text can close the element. */
function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Above the reference, on development servers: where to go with a token. */
const DEVELOPMENT_NOTICE =
  '<aside class="docs-notice" id="docs-token-notice">Development server: to try a request, choose <strong>Authorize</strong> and paste ' +
  `a token from <code>${escapeHtml(TOKEN_COMMAND)}</code> (run in the project folder).</aside>`;

export function renderDocsPage(options: DocsPageOptions): string {
  const { title, documentUrl, assets, development } = options;
  const document = escapeHtml(documentUrl);
  const config = { documentUrl, ...(development ? { tokenHint: { lines: DEVELOPMENT_TOKEN_HINT } } : {}) };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - API reference</title>
<link rel="icon" type="image/png" href="${escapeHtml(assets.icon)}">
<link rel="stylesheet" href="${escapeHtml(assets.swaggerStyle)}">
<link rel="stylesheet" href="${escapeHtml(assets.pageStyle)}">
</head>
<body>
<noscript><p class="docs-notice">This page needs JavaScript to render the API reference. The OpenAPI document itself is at <a href="${document}">${document}</a>.</p></noscript>
<div class="docs-notice" id="docs-fallback" role="alert" hidden>The API reference viewer could not start. The OpenAPI 3.1 document is at <a href="${document}">${document}</a>: open it in any OpenAPI viewer.</div>
${development ? DEVELOPMENT_NOTICE : ''}
<div id="swagger-ui"></div>
<script type="application/json" id="docs-config">${embedJson(config)}</script>
<script src="${escapeHtml(assets.swaggerScript)}"></script>
<script src="${escapeHtml(assets.pageScript)}"></script>
</body>
</html>
`;
}
