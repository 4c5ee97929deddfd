/** OpenAPI documentation of the indicator operations and the measurements extension. */
import * as v from 'valibot';
import type { OperationDoc } from '../../http/route';
import { INTEGER } from '../../openapi/values';
import { MAX_MEASUREMENTS, MeasurementSchema } from './measurement-input';

type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

const decimal = v.nullable(v.number());

const IndicatorSummary = v.strictObject({
  value: decimal,
  homologValue: v.pipe(v.nullable(v.string()), v.description('The homologous value with valueFractionDigits decimals')),
  variation: v.pipe(decimal, v.description('(value - homolog) / |homolog| x 100, 2 decimals')),
  trend: v.pipe(v.nullable(v.picklist([1, 0, -1])), v.description('Sign of value minus the previous period')),
  valueType: v.picklist(['Number', 'Percentage', 'Currency', 'Duration']),
  valueFractionDigits: INTEGER,
  currencySymbol: v.nullable(v.string()),
  result: v.pipe(v.nullable(v.picklist([1, 0, -1])), v.description('1 favourable, -1 unfavourable, 0 otherwise')),
});

const period = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}$/), v.description('Month (UTC), YYYY-MM'));
const KpiChartData = v.union([
  v.strictObject({ period, value: decimal, homologous: decimal, forecast: decimal }),
  v.pipe(v.strictObject({ period, forecast: decimal }), v.description('A future period: only the forecast')),
]);

const ADDRESS_400 = { description: 'Not valid, or an unknown company or KPI code (RecordNotFound)' };

export const summaryDoc = {
  schemas: { IndicatorSummary },
  parameters: [
    { name: 'companyKey', in: 'path', description: 'Company', schema: { json: { type: 'string' } } },
    { name: 'code', in: 'path', description: 'KPI code', schema: { json: { type: 'string' } } },
  ],
  responses: { 200: { description: 'The summary as of the last recalculation', schema: IndicatorSummary }, 400: ADDRESS_400 },
} satisfies Parts;

export const chartDoc = {
  schemas: { KpiChartData },
  parameters: [
    { name: 'company', in: 'path', description: 'Company', schema: { json: { type: 'string' } } },
    { name: 'code', in: 'path', description: 'KPI code', schema: { json: { type: 'string' } } },
    {
      name: 'referenceDate',
      in: 'query',
      required: true,
      description: 'ISO 8601 date or date-time: the last of the 12 periods',
      schema: { json: { type: 'string' } },
    },
  ],
  responses: {
    200: { description: '12 periods ending at referenceDate, then 3 with only the forecast', schema: v.array(KpiChartData) },
    400: ADDRESS_400,
  },
} satisfies Parts;

export const recalculateDoc = {
  parameters: [
    {
      name: 'workerConfigurationKey',
      in: 'path',
      description: 'A worker configuration (reference data)',
      schema: { json: { type: 'string' } },
    },
  ],
  responses: {
    200: { description: 'true once the KPIs are recalculated', schema: v.literal(true) },
    400: { description: 'Not valid, or an unknown worker configuration (RecordNotFound)' },
  },
} satisfies Parts;

export const measurementsDoc = {
  requestBody: {
    description: `At most ${MAX_MEASUREMENTS} measurements, all-or-nothing`,
    schema: v.pipe(v.array(MeasurementSchema), v.maxLength(MAX_MEASUREMENTS)),
  },
  responses: {
    200: { description: 'How many were accepted', schema: v.strictObject({ accepted: INTEGER }) },
    400: { description: 'Not valid, or unknown companies or KPI codes (UnknownReference)' },
  },
} satisfies Parts;
