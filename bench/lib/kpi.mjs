// KPI recalculation timing: ingest N measurements through the API (batches of 5000), then time one recalculation.
import { send } from './fixtures.mjs';

const COMPANY = 'BENCH-CO';
const CODES = ['MTBF', 'MTTR', 'AVAIL', 'COST'];

export async function measureRecalculation(api, token, count) {
  await send(api, token, 'PUT', '/referenceData/companies', [{ key: COMPANY, name: 'Bench company', baseCurrency: 'EUR' }]);
  await send(api, token, 'PUT', '/referenceData/kpiDefinitions', [
    {
      key: 'MTBF',
      name: 'Mean time between failures',
      valueType: 'Duration',
      valueFractionDigits: 1,
      aggregation: 'avg',
      higherIsBetter: true,
    },
    { key: 'MTTR', name: 'Mean time to repair', valueType: 'Duration', valueFractionDigits: 1, aggregation: 'avg', higherIsBetter: false },
    { key: 'AVAIL', name: 'Availability', valueType: 'Percentage', valueFractionDigits: 2, aggregation: 'avg', higherIsBetter: true },
    { key: 'COST', name: 'Maintenance cost', valueType: 'Currency', valueFractionDigits: 2, aggregation: 'sum', higherIsBetter: false },
  ]);
  await send(api, token, 'PUT', '/referenceData/workerConfigurations', [{ key: 'bench', companies: [COMPANY], codes: [] }]);
  const start = Date.UTC(2024, 0, 1);
  const span = Date.UTC(2026, 11, 31) - start;
  const ingestStarted = performance.now();
  for (let offset = 0; offset < count; offset += 5000) {
    const batch = [];
    for (let index = offset; index < Math.min(count, offset + 5000); index += 1) {
      const date = new Date(start + Math.floor((((index * 7919) % count) / count) * span)).toISOString();
      batch.push({ company: COMPANY, code: CODES[index % CODES.length], date, value: 50 + ((index * 31) % 100) / 2 });
    }
    await send(api, token, 'POST', '/maintenance/indicators/measurements', batch);
  }
  const ingestSeconds = Math.round((performance.now() - ingestStarted) / 100) / 10;
  const started = performance.now();
  const answer = await send(api, token, 'POST', '/maintenance/indicators/assetsRecalculateKPIs/bench');
  if (answer !== true) throw new Error(`assetsRecalculateKPIs answered ${JSON.stringify(answer)}`);
  return { company: COMPANY, code: 'MTBF', seconds: Math.round((performance.now() - started) / 100) / 10, ingestSeconds };
}
