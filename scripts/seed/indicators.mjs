// Demo data of the maintenance indicators: KPI definitions, worker configurations and ~18 months of
// measurements for ACME-PT (companies ACME-PT and ACME-US come from routes.mjs), then one recalculation.
export const referenceData = {
  kpiDefinitions: [
    {
      key: 'MTBF',
      name: 'Mean time between failures (h)',
      valueType: 'Duration',
      valueFractionDigits: 1,
      aggregation: 'avg',
      higherIsBetter: true,
    },
    {
      key: 'MTTR',
      name: 'Mean time to repair (h)',
      valueType: 'Duration',
      valueFractionDigits: 1,
      aggregation: 'avg',
      higherIsBetter: false,
    },
    { key: 'AVAIL', name: 'Availability', valueType: 'Percentage', valueFractionDigits: 2, aggregation: 'avg', higherIsBetter: true },
    { key: 'COST', name: 'Maintenance cost', valueType: 'Currency', valueFractionDigits: 2, aggregation: 'sum', higherIsBetter: false },
    { key: 'FAILURES', name: 'Failures', valueType: 'Number', valueFractionDigits: 0, aggregation: 'count', higherIsBetter: false },
  ],
  workerConfigurations: [
    { key: 'default', companies: [], codes: [] },
    { key: 'acme-pt', companies: ['ACME-PT'], codes: [] },
  ],
};

export const records = [];

const MONTHS = 18;

/** Deterministic measurements for the 18 months ending with the current one (UTC). */
export function buildMeasurements(now = new Date()) {
  const items = [];
  const firstMonth = now.getUTCFullYear() * 12 + now.getUTCMonth() - (MONTHS - 1);
  for (let offset = 0; offset < MONTHS; offset += 1) {
    const year = Math.floor((firstMonth + offset) / 12);
    const month = String(((firstMonth + offset) % 12) + 1).padStart(2, '0');
    const seasonal = [0, 1, 2, 1, 0, -1, -2, -1][offset % 8];
    for (let week = 0; week < 4; week += 1) {
      const date = `${year}-${month}-${String(1 + week * 7).padStart(2, '0')}`;
      items.push({ company: 'ACME-PT', code: 'MTBF', date, value: 150 + offset * 2 + seasonal * 3 + week });
      items.push({ company: 'ACME-PT', code: 'MTTR', date, value: (6 - offset * 0.1 + seasonal * 0.25 + week * 0.5).toFixed(2) });
      items.push({
        company: 'ACME-PT',
        code: 'AVAIL',
        date,
        value: (96 + offset * 0.1 - Math.abs(seasonal) * 0.4 + week * 0.05).toFixed(2),
      });
      items.push({ company: 'ACME-PT', code: 'COST', date, value: (1200 + seasonal * 150 + week * 35.5 - offset * 10).toFixed(2) });
    }
    for (let failure = 0; failure < 3 + ((offset * 5) % 4); failure += 1) {
      items.push({ company: 'ACME-PT', code: 'FAILURES', date: `${year}-${month}-${String(3 + failure * 5).padStart(2, '0')}`, value: 1 });
    }
    items.push({ company: 'ACME-US', code: 'COST', date: `${year}-${month}-15`, value: 2000 + offset * 25 });
  }
  return items;
}

/** Measurements are not idempotent: they are ingested only while the demo org has no materialized COST summary. */
export async function seed(send) {
  const summary = await send('GET', '/maintenance/indicators/getIndicatorSummaryByCode/ACME-PT/COST');
  if (summary.status !== 200) throw new Error(`Reading the KPI summary failed: ${summary.status} ${summary.text}`);
  if (JSON.parse(summary.text).value !== null) return 0;
  const items = buildMeasurements();
  for (let start = 0; start < items.length; start += 5000) {
    const result = await send('POST', '/maintenance/indicators/measurements', items.slice(start, start + 5000));
    if (result.status !== 200) throw new Error(`Seeding KPI measurements failed: ${result.status} ${result.text}`);
  }
  const recalculated = await send('POST', '/maintenance/indicators/assetsRecalculateKPIs/default');
  if (recalculated.status !== 200) throw new Error(`Recalculating KPIs failed: ${recalculated.status} ${recalculated.text}`);
  return items.length;
}
