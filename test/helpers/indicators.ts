/** Shared setup of the indicators tests: reference data and recalculation through the API. */
import { expect } from 'vitest';
import type { TenantClient } from './api';

export interface Measurement {
  company: string;
  code: string;
  date: string;
  value: number | string;
}

/** Companies ACME-PT (EUR) and ACME-US (USD), five KPI definitions and two worker configurations. */
export async function kpiReferenceData(client: TenantClient): Promise<void> {
  const puts: [string, unknown[]][] = [
    [
      'companies',
      [
        { key: 'ACME-PT', name: 'ACME Portugal', baseCurrency: 'EUR' },
        { key: 'ACME-US', name: 'ACME United States', baseCurrency: 'USD' },
      ],
    ],
    [
      'kpiDefinitions',
      [
        { key: 'COST', name: 'Maintenance cost', valueType: 'Currency', valueFractionDigits: 2, aggregation: 'sum', higherIsBetter: false },
        { key: 'AVAIL', name: 'Availability', valueType: 'Percentage', valueFractionDigits: 1, aggregation: 'avg', higherIsBetter: true },
        { key: 'FAIL', name: 'Failures', valueType: 'Number', valueFractionDigits: 0, aggregation: 'count', higherIsBetter: false },
        { key: 'LAST', name: 'Last reading', valueType: 'Number', valueFractionDigits: 2, aggregation: 'last', higherIsBetter: true },
        { key: 'PEAK', name: 'Peak load', valueType: 'Number', valueFractionDigits: 0, aggregation: 'max', higherIsBetter: true },
      ],
    ],
    [
      'workerConfigurations',
      [
        { key: 'default', companies: [], codes: [] },
        { key: 'pt-cost', companies: ['ACME-PT'], codes: ['COST'] },
      ],
    ],
  ];
  for (const [kind, body] of puts) {
    const result = await client.call('PUT', `/referenceData/${kind}`, { body });
    expect(result.status, result.text).toBe(200);
  }
}

/** POST assetsRecalculateKPIs; answers the status (and checks the body is `true` on 200). */
export async function recalculate(client: TenantClient, configuration: string): Promise<number> {
  const result = await client.call('POST', `/maintenance/indicators/assetsRecalculateKPIs/${configuration}`);
  if (result.status === 200) expect(result.body).toBe(true);
  return result.status;
}
