/**
 * What every platform (the Worker, its Durable Object, Deno) is built over: the tenant/org tables (moves, the operator
 * API) and the services' write watchers (reads that ride at the end of every write batch, e.g. webhook kicks).
 */
import type { TenantModel } from './runtime/tenant-databases';
import { writeWatchers } from './services/registry';
import { TENANT_TABLES } from './tenant-tables';

export const TENANT_MODEL: TenantModel = { tables: TENANT_TABLES, watchers: writeWatchers };
