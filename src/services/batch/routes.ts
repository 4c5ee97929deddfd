/** `POST /api/{tenantKey}/{orgKey}/$batch`: many operations in one request, JSON or multipart (src/services/batch/handle.ts). */
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { batchDoc } from './docs';
import { handleBatch } from './handle';

const BATCH_PATH = '/$batch';

export const batchRoutes: readonly ApiRoute[] = [
  defineApiRoute({ method: 'POST', path: BATCH_PATH, scope: 'application', doc: batchDoc, handle: (ctx) => handleBatch(ctx, 'api') }),
];
