/** `$batch`: many operations of this API in one request (OData 4.01 JSON and OData 4.0 multipart batch formats). */
import { batchRoutes } from './routes';

export const batchService = { name: 'batch', routes: batchRoutes };
