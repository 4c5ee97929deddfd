/** Public, unauthenticated routes: /health, /openapi.json and /docs. */
import type { PublicRoute } from './http/route';
import { jsonResponse } from './http/responses';
import { buildOpenApiRoutes } from './openapi/routes';
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

export const publicRoutes: readonly PublicRoute[] = [healthRoute, ...buildOpenApiRoutes(() => ({ publicRoutes, apiRoutes }))];
