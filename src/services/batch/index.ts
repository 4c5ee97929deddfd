/** `$batch`: many operations of this API in one request (OData 4.01 JSON batch format). */
import { batchRoutes } from './routes';

export const batchService = { name: 'batch', routes: batchRoutes };
