/** Public, unauthenticated routes. */
import type { PublicRoute } from './http/route';
import { jsonResponse } from './http/responses';

export const publicRoutes: readonly PublicRoute[] = [
  {
    method: 'GET',
    path: '/health',
    doc: { summary: 'Liveness check (no token needed)', tags: ['Health'], operationId: 'readHealth' },
    handle: () => jsonResponse({ status: 'ok' }),
  },
];
