/** Every service's routes and entity stores, in registration order (literal paths before parameters). */
import { sql } from 'drizzle-orm';
import { generationCommands } from '../coordinator/commands';
import type { CommandHandlers } from '../coordinator/commands';
import type { EntityStore } from '../entities/store';
import type { ApiRoute } from '../http/route';
import { buildReferenceDataRoutes } from '../reference/routes';
import { tenantReferenceStores } from '../reference/tables';
import type { ReferenceUser } from '../reference/usage';
import type { ScheduledJob } from '../scheduler';
import { emailTemplateRoutes, emailTemplateStore } from './email-templates/routes';
import { exchangeRatesDocumentStore, exchangeRatesRoutes, invalidateRatesOnCompanyWrite } from './exchange-rates/routes';
import { apiClientRoutes } from './identity/routes';
import { importCommands } from './imports/commands';
import { importRoutes } from './imports/routes';
import { indicatorCommands } from './indicators/commands';
import { indicatorRecalculationJob } from './indicators/job';
import { indicatorRoutes } from './indicators/routes';
import { indicatorReferenceUsers } from './indicators/usage';
import { guardRouteReferences } from './routes/reference-guard';
import { routeReferenceUsers, routeRoutes, routeStore } from './routes/routes';

export const entityStores: readonly EntityStore[] = [emailTemplateStore, routeStore, exchangeRatesDocumentStore];

/** Columns that hold reference keys, derived from the entity and reference kind descriptions. */
export function listReferenceUsers(): ReferenceUser[] {
  const users: ReferenceUser[] = [];
  for (const store of entityStores) {
    const keyColumns = store.spec.key.flatMap((keyName) => store.columns[keyName] ?? []);
    for (const [name, field] of Object.entries(store.spec.fields)) {
      const column = store.columns[name];
      if (!field.reference || !column) continue;
      const label = sql.join(keyColumns, sql.raw(" || '/' || "));
      const { tenantKey, orgKey } = store.common;
      users.push({ kind: field.reference, name: `${store.spec.name}.${name}`, table: store.table, column, tenantKey, orgKey, label });
    }
  }
  users.push(...routeReferenceUsers);
  users.push(...indicatorReferenceUsers);
  for (const { spec, table, common, columns } of tenantReferenceStores.values()) {
    for (const [name, field] of Object.entries(spec.fields)) {
      const column = columns[name];
      if (!field.reference || !column) continue;
      users.push({
        kind: field.reference,
        name: `${spec.kind}.${name}`,
        table,
        column,
        tenantKey: common.tenantKey,
        orgKey: common.orgKey,
        label: sql`${common.key}`,
        ...(field.kind === 'stringList' ? { list: true } : {}),
      });
    }
  }
  return users;
}

const referenceDataRoutes = buildReferenceDataRoutes(listReferenceUsers(), [guardRouteReferences]).map(invalidateRatesOnCompanyWrite);

export const apiRoutes: readonly ApiRoute[] = [
  ...referenceDataRoutes,
  ...apiClientRoutes,
  ...emailTemplateRoutes,
  ...routeRoutes,
  ...importRoutes,
  ...indicatorRoutes,
  ...exchangeRatesRoutes,
];

/** What the tenant/org coordinators run: the cache generation counters and every service's commands. */
export const commandHandlers: CommandHandlers = { ...generationCommands, ...importCommands, ...indicatorCommands };

/** The cron trigger's jobs. */
export const scheduledJobs: readonly ScheduledJob[] = [indicatorRecalculationJob];
