/**
 * Every D1 table, for drizzle-kit (`npm run db:generate` writes migrations/ from this file).
 * Tables are derived from the entity and reference-kind descriptions; export each one here.
 */
export { emailTemplates } from './services/email-templates/table';
export { routeEquipmentItems, routeLocations, routes, routeTools } from './services/routes/table';
export { importChunks, importDataInfoChanges, importDataInfos } from './services/imports/table';
export { kpiMeasurements, kpiPendingOrgs, kpiPeriods, kpiSeries, kpiSummaries } from './services/indicators/tables';
export { exchangeRateLines, exchangeRatesDocuments } from './services/exchange-rates/table';
export { apiClients } from './services/identity/table';
export {
  refBrandModels,
  refBrands,
  refCompanies,
  refCultures,
  refCurrencies,
  refCustomAttributes,
  refEmployees,
  refEquipmentItems,
  refFamilies,
  refKpiDefinitions,
  refLocationFunctions,
  refLocations,
  refTools,
  refWorkerConfigurations,
} from './resources/reference/tables';

/** Which tenant/orgs this tenant database holds (the residency guard's authority; src/tenant/placement/). */
export { tenantResidency } from './tenant/placement/residency-table';

/** The event log (outbox) of every tenant/org and its retention mark (src/events/). */
export { changeEventRetention, changeEvents } from './events/table';
export { eventDeliveries, eventSubscriptions } from './services/events/tables';

/** The row-level history of every tenant/org, for point-in-time restores (src/tenant/backup/). */
export { tenantHistory, tenantHistoryPruned } from './tenant/backup/history-table';

/** What the daily backup pass needs to know per tenant/org without listing R2 (src/tenant/backup/cron.ts). */
export { tenantBackupState } from './tenant/backup/state-table';
