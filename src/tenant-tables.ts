/**
 * Every tenant/org table of the tenant schema, parents first: what a move copies, verifies and deletes, and what the
 * operator API counts (src/tenant/placement/). A table added to src/schema.ts is moved without code elsewhere.
 */
import { describeTenantTables } from './tenant/placement/tenant-tables';
import * as schema from './schema';

export const TENANT_TABLES = describeTenantTables(schema);
