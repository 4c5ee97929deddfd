/** Maintenance indicators: measurements, summaries, charts, recalculation. */
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { errorOfFields, validationError } from '../../errors/api-error';
import { jsonResponse } from '../../http/responses';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { normalizeDateTime } from '../../validation/values';
import { sendRecalculation } from './commands';
import { chartDoc, measurementsDoc, recalculateDoc, summaryDoc } from './docs';
import { parseMeasurements } from './measurement-input';
import { ingestMeasurements } from './measurements';
import { toPeriod } from './periods';
import { loadIndicatorSummary, loadKpiChart } from './read';
import { message } from '../../messages/catalogue';

const INDICATORS_BASE = '/maintenance/indicators';
const tags = ['Indicators'];

async function handleIngest(ctx: ApiContext) {
  const measurements = parseMeasurements(await readJsonBody(ctx.request));
  await ingestMeasurements(ctx.tenant, measurements);
  return jsonResponse(measurementsDoc.responses[200].schema, { accepted: measurements.length });
}

async function handleSummary(ctx: ApiContext) {
  const address = { company: ctx.params.companyKey ?? '', code: ctx.params.code ?? '', companyField: 'companyKey', codeField: 'code' };
  return jsonResponse(summaryDoc.responses[200].schema, await loadIndicatorSummary(ctx.tenant, address));
}

function parseReferencePeriod(ctx: ApiContext): string {
  const raw = ctx.url.searchParams.get('referenceDate');
  if (raw === null || raw.trim() === '')
    throw validationError([{ path: 'referenceDate', message: message('required', { field: 'referenceDate' }) }]);
  const normalized = normalizeDateTime(raw);
  if (normalized === undefined) {
    throw validationError([{ path: 'referenceDate', message: message('mustBeDateTime', { field: 'referenceDate' }) }]);
  }
  return toPeriod(normalized);
}

async function handleChart(ctx: ApiContext) {
  const period = parseReferencePeriod(ctx);
  const address = { company: ctx.params.company ?? '', code: ctx.params.code ?? '', companyField: 'company', codeField: 'code' };
  return jsonResponse(chartDoc.responses[200].schema, await loadKpiChart(ctx.tenant, address, period));
}

async function handleRecalculate(ctx: ApiContext) {
  const configurationKey = ctx.params.workerConfigurationKey ?? '';
  const outcome = await sendRecalculation(ctx.platform, ctx.tenant.scope, { configurationKey, onlyChanged: false });
  if (outcome.status === 'unknownConfiguration') {
    throw errorOfFields('RecordNotFound', [
      { path: 'workerConfigurationKey', message: message('unknownWorkerConfiguration', { key: configurationKey }) },
    ]);
  }
  return jsonResponse(recalculateDoc.responses[200].schema, true);
}

export const indicatorRoutes: readonly ApiRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: `${INDICATORS_BASE}/measurements`,
    scope: 'application',
    doc: {
      summary: 'Ingest up to 5000 KPI measurements {company, code, date, value}, all-or-nothing',
      tags,
      operationId: 'ingestKpiMeasurements',
      ...measurementsDoc,
    },
    handle: handleIngest,
  }),
  defineApiRoute({
    method: 'GET',
    path: `${INDICATORS_BASE}/getIndicatorSummaryByCode/:companyKey/:code`,
    scope: 'application',
    doc: {
      summary: "The indicator summary of a company's KPI, as of the last recalculation",
      tags,
      operationId: 'getIndicatorSummaryByCode',
      ...summaryDoc,
    },
    handle: handleSummary,
  }),
  defineApiRoute({
    method: 'GET',
    path: `${INDICATORS_BASE}/kpiChart/:company/:code`,
    scope: 'application',
    doc: {
      summary: 'KPI chart: the 12 periods ending at referenceDate, then 3 forecast periods',
      tags,
      operationId: 'kpiChart',
      ...chartDoc,
    },
    handle: handleChart,
  }),
  defineApiRoute({
    method: 'POST',
    path: `${INDICATORS_BASE}/assetsRecalculateKPIs/:workerConfigurationKey`,
    scope: 'application',
    doc: {
      summary: "Recalculate the KPIs of a worker configuration's companies and codes; true when materialized",
      tags,
      operationId: 'assetsRecalculateKPIs',
      ...recalculateDoc,
    },
    handle: handleRecalculate,
  }),
];
