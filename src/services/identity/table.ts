/** D1 table of the API clients (OAuth2 client credentials), in the tenant's own database. */
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { Scope } from '../../auth/token';

/** The scopes a client may hold (validate.ts CLIENT_SCOPES): never `operator`. */
type ClientScope = Extract<Scope, 'application' | 'admin'>;

/**
 * One row per client, scoped by the tenant/org it was registered under. The secret is kept only as its SHA-256
 * digest; `scopes` and `orgs` (org keys of the tenant, or `*`) are JSON arrays; a revoked client keeps its row.
 */
export const apiClients = sqliteTable(
  'api_clients',
  {
    id: text('id').primaryKey(),
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes', { mode: 'json' }).$type<ClientScope[]>().notNull(),
    orgs: text('orgs', { mode: 'json' }).$type<string[]>().notNull(),
    secretIssuedOn: text('secret_issued_on').notNull(),
    revokedOn: text('revoked_on'),
    version: integer('version').notNull().default(1),
    createdOn: text('created_on').notNull(),
    createdBy: text('created_by').notNull(),
    modifiedOn: text('modified_on').notNull(),
    modifiedBy: text('modified_by').notNull(),
  },
  (table) => [uniqueIndex('api_clients_client_id_uq').on(table.tenantKey, table.orgKey, table.clientId)],
);

export type ApiClientRow = typeof apiClients.$inferSelect;
