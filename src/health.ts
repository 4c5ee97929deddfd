/** Public, unauthenticated routes: /health, /openapi.json, /docs and the OAuth2 token endpoint (/connect/token). */
import type { PublicRoute } from './http/route';
import { jsonResponse } from './http/responses';
import { buildOpenApiRoutes } from './openapi/routes';
import { apiRoutes, servicePublicRoutes } from './services/registry';
import { operatorRoutes } from './admin/routes';

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
  ...servicePublicRoutes,
  ...buildOpenApiRoutes(() => ({ publicRoutes, apiRoutes, operatorRoutes })),
];
