/** Columns of the indicators service that hold reference keys: deleting a company or KPI definition in use is refused. */
import { sql } from 'drizzle-orm';
import type { ReferenceUser } from '../../resources/reference/usage';
import { kpiSeries } from './tables';

export const indicatorReferenceUsers: readonly ReferenceUser[] = [
  {
    kind: 'companies',
    name: 'kpiMeasurements.company',
    table: kpiSeries,
    column: kpiSeries.company,
    tenantKey: kpiSeries.tenantKey,
    orgKey: kpiSeries.orgKey,
    label: sql`${kpiSeries.code}`,
  },
  {
    kind: 'kpiDefinitions',
    name: 'kpiMeasurements.code',
    table: kpiSeries,
    column: kpiSeries.code,
    tenantKey: kpiSeries.tenantKey,
    orgKey: kpiSeries.orgKey,
    label: sql`${kpiSeries.company}`,
  },
];
