/**
 * Every D1 table, for drizzle-kit (`npm run db:generate` writes migrations/ from this file).
 * Tables are derived from the entity and reference-kind descriptions; export each one here.
 */
import { readReferenceTable } from '../reference/tables';

export { emailTemplates } from '../services/email-templates/table';
export { routeEquipmentItems, routeLocations, routes, routeTools } from '../services/routes/table';
export { importDataInfoChanges, importDataInfos } from '../services/imports/table';
export { kpiMeasurements, kpiPendingOrgs, kpiPeriods, kpiSeries, kpiSummaries } from '../services/indicators/tables';
export { exchangeRateLines, exchangeRatesDocuments } from '../services/exchange-rates/table';

export const refCultures = readReferenceTable('cultures');
export const refCurrencies = readReferenceTable('currencies');
export const refCompanies = readReferenceTable('companies');
export const refEmployees = readReferenceTable('employees');
export const refLocations = readReferenceTable('locations');
export const refEquipmentItems = readReferenceTable('equipmentItems');
export const refTools = readReferenceTable('tools');
export const refLocationFunctions = readReferenceTable('locationFunctions');
export const refFamilies = readReferenceTable('families');
export const refBrands = readReferenceTable('brands');
export const refBrandModels = readReferenceTable('brandModels');
export const refKpiDefinitions = readReferenceTable('kpiDefinitions');
export const refWorkerConfigurations = readReferenceTable('workerConfigurations');
export const refCustomAttributes = readReferenceTable('customAttributes');

/** Which tenant/orgs this tenant database holds (the residency guard's authority; src/platform/placement/). */
export { tenantResidency } from '../platform/placement/residency-table';
