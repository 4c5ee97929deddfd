/** D1 tables of the indicators service (docs/storage.md describes each one). */
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { KeyHolderSpec } from '../../resources/reference/spec';
import { defineRowsTable } from '../../model/table';
import { kpiMeasurementResource } from './resources';

/** Raw measurements, derived from their description (resources.ts). */
export const kpiMeasurements = defineRowsTable(kpiMeasurementResource);

/** One row per (company, code) that has measurements (also what reference deletes check): `version` grows with every ingestion, `calculatedVersion` is what was materialized. */
export const kpiSeries = sqliteTable(
  'kpi_series',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    company: text('company').notNull(),
    code: text('code').notNull(),
    version: integer('version').notNull().default(1),
    calculatedVersion: integer('calculated_version').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.tenantKey, table.orgKey, table.company, table.code] })],
);

/** The series' keys name a company and a KPI definition (the database rules of src/resources/triggers/). */
export const kpiSeriesKeys: KeyHolderSpec = { table: 'kpi_series', references: { company: 'companies', code: 'kpiDefinitions' } };

/** Tenant/orgs with measurements not yet recalculated (read by the cron trigger). */
export const kpiPendingOrgs = sqliteTable(
  'kpi_pending_orgs',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    version: integer('version').notNull().default(1),
    markedOn: text('marked_on').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantKey, table.orgKey] })],
);

/** Materialized monthly figures per (company, code); decimals as exact text. */
export const kpiPeriods = sqliteTable(
  'kpi_periods',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    company: text('company').notNull(),
    code: text('code').notNull(),
    period: text('period').notNull(),
    value: text('value'),
    homologous: text('homologous'),
    forecast: text('forecast'),
  },
  (table) => [primaryKey({ columns: [table.tenantKey, table.orgKey, table.company, table.code, table.period] })],
);

/** Materialized summary per (company, code), as of the last recalculation. */
export const kpiSummaries = sqliteTable(
  'kpi_summaries',
  {
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    company: text('company').notNull(),
    code: text('code').notNull(),
    period: text('period'),
    value: text('value'),
    homologValue: text('homolog_value'),
    variation: text('variation'),
    trend: integer('trend'),
    result: integer('result'),
    valueType: text('value_type').notNull(),
    valueFractionDigits: integer('value_fraction_digits').notNull(),
    currencySymbol: text('currency_symbol'),
    calculatedOn: text('calculated_on').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantKey, table.orgKey, table.company, table.code] })],
);
