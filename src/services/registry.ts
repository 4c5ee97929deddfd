/** Every service's routes and entity stores, in registration order (literal paths before parameters). */
import { sql } from 'drizzle-orm';
import { generationCommands } from '../coordinator/commands';
import type { CommandHandlers } from '../coordinator/commands';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { EntityStore } from '../entities/repository';
import type { ApiRoute } from '../http/route';
import { REFERENCE_KINDS } from '../reference/kinds';
import { buildReferenceDataRoutes } from '../reference/routes';
import { readReferenceTable } from '../reference/tables';
import type { ReferenceUser } from '../reference/usage';
import { emailTemplateRoutes, emailTemplateStore } from './email-templates/routes';
import { guardRouteReferences } from './routes/reference-guard';
import { routeReferenceUsers, routeRoutes, routeStore } from './routes/routes';
import { importCommands } from './imports/commands';
import { importRoutes } from './imports/routes';
import { indicatorCommands } from './indicators/commands';
import { indicatorRoutes } from './indicators/routes';
import { indicatorReferenceUsers } from './indicators/usage';
import { exchangeRatesDocumentStore, exchangeRatesRoutes, invalidateRatesOnCompanyWrite } from './exchange-rates/routes';

export const entityStores: readonly EntityStore[] = [emailTemplateStore, routeStore, exchangeRatesDocumentStore];

/** Columns that hold reference keys, derived from the entity and reference kind descriptions. */
export function listReferenceUsers(): ReferenceUser[] {
  const users: ReferenceUser[] = [];
  for (const store of entityStores) {
    for (const [name, field] of Object.entries(store.spec.fields)) {
      const column = store.columns[name];
      const tenantKey = store.columns.tenantKey;
      const orgKey = store.columns.orgKey;
      if (field.reference && column && tenantKey && orgKey) {
        const keyColumns = store.spec.key.map((keyName) => store.columns[keyName]).filter((keyColumn) => keyColumn !== undefined);
        const label = sql.join(keyColumns, sql.raw(" || '/' || "));
        users.push({ kind: field.reference, name: `${store.spec.name}.${name}`, table: store.table, column, tenantKey, orgKey, label });
      }
    }
  }
  users.push(...routeReferenceUsers);
  users.push(...indicatorReferenceUsers);
  for (const spec of REFERENCE_KINDS) {
    if (spec.standard) continue;
    const table = readReferenceTable(spec.kind);
    const columns = table as unknown as Record<string, SQLiteColumn>;
    for (const [name, field] of Object.entries(spec.fields)) {
      const column = columns[name];
      if (field.reference && column && columns.tenantKey && columns.orgKey) {
        users.push({
          kind: field.reference,
          name: `${spec.kind}.${name}`,
          table,
          column,
          tenantKey: columns.tenantKey,
          orgKey: columns.orgKey,
          ...(columns.key ? { label: sql`${columns.key}` } : {}),
          ...(field.kind === 'stringList' ? { list: true } : {}),
        });
      }
    }
  }
  return users;
}

const referenceDataRoutes = buildReferenceDataRoutes(listReferenceUsers(), [guardRouteReferences]).map(invalidateRatesOnCompanyWrite);

export const apiRoutes: readonly ApiRoute[] = [
  ...referenceDataRoutes,
  ...emailTemplateRoutes,
  ...routeRoutes,
  ...importRoutes,
  ...indicatorRoutes,
  ...exchangeRatesRoutes,
];

/** What the tenant/org coordinators run: the cache generation counters and every service's commands. */
export const commandHandlers: CommandHandlers = { ...generationCommands, ...importCommands, ...indicatorCommands };
