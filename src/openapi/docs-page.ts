/** `GET /docs`: the document rendered for people by Scalar (loaded from a CDN), with a clear message when it cannot load. */

export const SCALAR_SCRIPT = 'https://cdn.jsdelivr.net/npm/@scalar/api-reference@1';

export function renderDocsPage(title: string, documentUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - API reference</title>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; }
  #offline { display: none; max-width: 40rem; margin: 4rem auto; padding: 1.5rem; border: 1px solid #d33; border-radius: 8px; }
  #offline.shown { display: block; }
</style>
</head>
<body>
<noscript><p>This page needs JavaScript to render the API reference. The OpenAPI document itself is at <a href="${documentUrl}">${documentUrl}</a>.</p></noscript>
<div id="offline" role="alert">
  <h1>The API reference viewer could not be loaded</h1>
  <p>This page renders the API with <a href="https://scalar.com">Scalar</a>, whose script comes from a CDN
  (<code>${SCALAR_SCRIPT}</code>). It did not load: you may be offline, or the CDN is blocked.</p>
  <p>The OpenAPI 3.1 document is served by this API itself: <a href="${documentUrl}">${documentUrl}</a>.
  Open it in any OpenAPI viewer or editor.</p>
</div>
<div id="app"></div>
<script>
  function showOffline() { document.getElementById('offline').className = 'shown'; }
  function startReference() {
    if (!window.Scalar || typeof window.Scalar.createApiReference !== 'function') return showOffline();
    window.Scalar.createApiReference('#app', { url: ${JSON.stringify(documentUrl)} });
  }
  setTimeout(function () { if (!window.Scalar) showOffline(); }, 15000);
</script>
<script src="${SCALAR_SCRIPT}" onload="startReference()" onerror="showOffline()"></script>
</body>
</html>
`;
}
