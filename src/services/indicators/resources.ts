/** The indicators service's described resources: KPI measurements. */
import { defineResource } from '../../model/resource';

/**
 * A raw measurement of a KPI of a company. `valueMicros` is the value in millionths (exact integer); `period` is the UTC
 * month of `measuredAt`. The covering series index lets recalculation aggregate one series by month from the index alone.
 */
export const kpiMeasurementResource = defineResource({
  storage: 'rows',
  name: 'kpiMeasurements',
  title: 'KPI measurement',
  table: 'kpi_measurements',
  key: ['company', 'code', 'measuredAt'],
  fields: {
    company: { kind: 'string', column: 'company', required: true, reference: 'companies', description: 'Company (key)' },
    code: { kind: 'string', column: 'code', required: true, reference: 'kpiDefinitions', description: 'KPI code' },
    measuredAt: { kind: 'datetime', column: 'measured_at', required: true, description: 'When it was measured (UTC)' },
    period: { kind: 'string', column: 'period', required: true, description: 'UTC month of measuredAt (YYYY-MM)' },
    valueMicros: { kind: 'int', column: 'value_micros', required: true, description: 'The value in millionths' },
  },
  indexes: { series: ['company', 'code', 'period', 'measuredAt', 'valueMicros'] },
});
