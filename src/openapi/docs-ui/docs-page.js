// The script of GET /docs (served as /assets/docs-page.<hash>.js, built by scripts/docs-assets.mjs): starts
// Swagger UI on the document named by the page's #docs-config. On a development server the config also carries
// a token hint, shown in the Authorize dialog next to the token field; production pages carry none.
(() => {
  'use strict';
  const config = JSON.parse(document.getElementById('docs-config').textContent);
  const SwaggerUIBundle = window.SwaggerUIBundle;
  if (typeof SwaggerUIBundle !== 'function') {
    document.getElementById('docs-fallback').hidden = false;
    return;
  }

  /** The hint as React elements: paragraphs and the commands to run. */
  function renderTokenHint(React, hint) {
    const lines = hint.lines.map((line, index) =>
      line.code
        ? React.createElement('pre', { key: index }, React.createElement('code', null, line.code))
        : React.createElement('p', { key: index }, line.text),
    );
    return React.createElement('div', { className: 'docs-token-hint', 'data-testid': 'token-hint' }, lines);
  }

  /** True for the bearer scheme's form (the dialog also has the token endpoint's Basic scheme, which needs no hint). */
  function isBearer(props) {
    const scheme = props.schema && typeof props.schema.get === 'function' ? props.schema.get('scheme') : undefined;
    return typeof scheme === 'string' && scheme.toLowerCase() === 'bearer';
  }

  /** Wraps the bearer (http) scheme's form in the Authorize dialog: the hint goes right under the token field. */
  function tokenHintPlugin(hint) {
    return {
      wrapComponents: {
        HttpAuth: (Original, system) => (props) =>
          isBearer(props)
            ? system.React.createElement('div', null, system.React.createElement(Original, props), renderTokenHint(system.React, hint))
            : system.React.createElement(Original, props),
      },
    };
  }

  window.ui = SwaggerUIBundle({
    url: config.documentUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: true,
    // Nothing leaves this origin: no online validator badge, no configuration from the query string.
    validatorUrl: null,
    queryConfigEnabled: false,
    persistAuthorization: false,
    plugins: config.tokenHint ? [tokenHintPlugin(config.tokenHint)] : [],
  });
})();
