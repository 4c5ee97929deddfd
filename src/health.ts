/** Public, unauthenticated routes: /health, /openapi.json, /docs and the OAuth2 token endpoint (/connect/token). */
import type { PublicRoute } from './http/route';
import { jsonResponse } from './http/responses';
import { buildOpenApiRoutes } from './openapi/routes';
import { buildTokenRoutes } from './services/identity/token-endpoint';
import { apiRoutes } from './services/registry';

const healthRoute: PublicRoute = {
  method: 'GET',
  path: '/health',
  doc: {
    summary: 'Liveness check (no token needed)',
    tags: ['Health'],
    operationId: 'readHealth',
    responses: {
      200: {
        description: 'The service is up',
        schema: { json: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'], additionalProperties: false } },
      },
    },
  },
  handle: () => jsonResponse({ status: 'ok' }),
};

export const publicRoutes: readonly PublicRoute[] = [
  healthRoute,
  ...buildTokenRoutes(),
  ...buildOpenApiRoutes(() => ({ publicRoutes, apiRoutes })),
];
