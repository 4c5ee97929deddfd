/** `GET /openapi.json` and `GET /docs` (no token needed). */
import * as v from 'valibot';
import { htmlResponse, jsonResponse } from '../http/responses';
import { definePublicRoute } from '../http/route';
import type { ApiRoute, OperatorRoute, PublicRoute } from '../http/route';
import { loadDocsAssets } from './docs-assets';
import { DOCS_CONTENT_SECURITY_POLICY, renderDocsPage } from './docs-page';
import { API_TITLE, buildOpenApiDocument } from './document';
import type { JsonObject } from './schema';

const OPENAPI_PATH = '/openapi.json';

/** The answer of /openapi.json. */
const OPENAPI_DOCUMENT = v.pipe(v.record(v.string(), v.unknown()), v.description('An OpenAPI 3.1 document'));
const DOCS_PATH = '/docs';

interface DocumentedRoutes {
  readonly publicRoutes: readonly PublicRoute[];
  readonly apiRoutes: readonly ApiRoute[];
  readonly operatorRoutes?: readonly OperatorRoute[];
}

/** `listRoutes` is called on the first request: the document covers these routes too. */
export function buildOpenApiRoutes(listRoutes: () => DocumentedRoutes): PublicRoute[] {
  let document: JsonObject | undefined;
  const buildDocumentOnce = () => {
    if (!document) {
      const { publicRoutes, apiRoutes, operatorRoutes } = listRoutes();
      document = buildOpenApiDocument(publicRoutes, apiRoutes, operatorRoutes);
    }
    return document;
  };
  return [
    definePublicRoute({
      method: 'GET',
      path: OPENAPI_PATH,
      doc: {
        summary: 'This OpenAPI 3.1 document (no token needed)',
        tags: ['Documentation'],
        operationId: 'readOpenApiDocument',
        responses: {
          200: { description: 'The OpenAPI document', schema: OPENAPI_DOCUMENT },
        },
      },
      handle: (ctx) =>
        jsonResponse(
          OPENAPI_DOCUMENT,
          { ...buildDocumentOnce(), servers: [{ url: ctx.url.origin }] },
          { headers: { 'cache-control': 'public, max-age=300' } },
        ),
    }),
    definePublicRoute({
      method: 'GET',
      path: DOCS_PATH,
      doc: {
        summary: 'The API reference for people, rendered from /openapi.json (no token needed)',
        tags: ['Documentation'],
        operationId: 'readApiReference',
        responses: { 200: { description: 'An HTML page', contentType: 'text/html', schema: v.string() } },
      },
      handle: async (ctx) => {
        const assets = await loadDocsAssets(ctx.platform);
        const development = ctx.platform.config.environment === 'development';
        return htmlResponse(renderDocsPage({ title: API_TITLE, documentUrl: OPENAPI_PATH, assets, development }), {
          // Always revalidated: the page names the current content-hashed assets (which are cached for a year).
          'cache-control': 'no-cache',
          'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        });
      },
    }),
  ];
}
