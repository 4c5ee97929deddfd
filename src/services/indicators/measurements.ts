/** `POST /maintenance/indicators/measurements`: validation and all-or-nothing ingestion. */
import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import { chunkForParameters } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runWrites } from '../../db/writes';
import type { WriteStatement } from '../../db/writes';
import { validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { issueMessage, message } from '../../messages/catalogue';
import { parseOrIssue } from '../../validation/issues';
import { parseStrictBody } from '../../validation/strict-body';
import { bindPropertyNames } from '../../validation/property-names';
import { isPlainObject, normalizeDateTime, normalizeDecimal } from '../../validation/values';
import { checkReferencesExist } from '../../reference/store';
import type { ReferenceUse } from '../../reference/store';
import { VALUE_SCALE } from './kpi-math';
import { toPeriod } from './periods';
import { kpiMeasurements, kpiPendingOrgs, kpiSeries } from './tables';

export const MAX_MEASUREMENTS = 5000;
/** Largest magnitude of a value: its millionths stay an exact 64-bit integer. */
const MAX_MAGNITUDE = new Decimal('1e12');

const KEY_MAX = 100;
const KEY = (field: string) =>
  v.pipe(
    v.string(issueMessage('mustBeString', { field })),
    v.minLength(1, issueMessage('mustNotBeEmpty', { field })),
    v.maxLength(KEY_MAX, issueMessage('tooLong', { field, max: KEY_MAX })),
  );
const VALUE = { field: 'value' };

export const MeasurementSchema = v.strictObject({
  company: KEY('company'),
  code: KEY('code'),
  date: v.pipe(
    v.string(issueMessage('mustBeDateTime', { field: 'date' })),
    parseOrIssue(normalizeDateTime, 'mustBeDateTime', { field: 'date' }),
  ),
  value: v.pipe(
    v.union([v.number(), v.string()], issueMessage('mustBeDecimal', VALUE)),
    parseOrIssue(normalizeDecimal, 'mustBeDecimal', VALUE),
    v.check((out) => new Decimal(out).decimalPlaces() <= VALUE_SCALE, issueMessage('decimalPlaces', { ...VALUE, max: VALUE_SCALE })),
    v.check((out) => new Decimal(out).abs().lt(MAX_MAGNITUDE), issueMessage('magnitude', VALUE)),
  ),
});
const MEASUREMENT_PROPERTIES = Object.keys(MeasurementSchema.entries);

export interface Measurement {
  readonly company: string;
  readonly code: string;
  /** `YYYY-MM-DDTHH:mm:ss.sssZ` */
  readonly measuredAt: string;
  /** The value in millionths, as exact integer text. */
  readonly valueMicros: string;
}

/** Validates the body: an array of at most 5000 measurements; names every bad field. */
export function parseMeasurements(body: unknown): Measurement[] {
  const items = '{company, code, date, value}';
  if (!Array.isArray(body)) throw validationError([{ path: '', message: message('bodyMustBeArray', { items }) }]);
  if (body.length > MAX_MEASUREMENTS) {
    throw validationError([{ path: '', message: message('tooManyInBody', { max: MAX_MEASUREMENTS, items, count: body.length }) }]);
  }
  const errors: FieldError[] = [];
  const measurements: Measurement[] = [];
  body.forEach((item, index) => {
    // Property names bind case-insensitively (`Company`, `VALUE`).
    const bound = isPlainObject(item) ? bindPropertyNames(item, MEASUREMENT_PROPERTIES, `[${index}]`) : { values: item, errors: [] };
    errors.push(...bound.errors);
    const result = parseStrictBody(MeasurementSchema, bound.values, `[${index}]`, { abortPipeEarly: true });
    if (!result.success) {
      errors.push(...result.errors);
      return;
    }
    const { company, code, date, value } = result.output;
    measurements.push({
      company,
      code,
      measuredAt: date,
      valueMicros: new Decimal(value).times(10 ** VALUE_SCALE).toFixed(0),
    });
  });
  if (errors.length > 0) throw validationError(errors);
  return measurements;
}

/** 400 UnknownReference naming every measurement whose company or KPI code is unknown. */
export async function checkMeasurementReferences(db: Database, scope: TenantScope, measurements: readonly Measurement[]): Promise<void> {
  const uses: ReferenceUse[] = measurements.flatMap((measurement, index) => [
    { kind: 'companies', key: measurement.company, path: `[${index}].company` },
    { kind: 'kpiDefinitions', key: measurement.code, path: `[${index}].code` },
  ]);
  if (uses.length > 0) await checkReferencesExist(db, scope, uses);
}

/**
 * Writes the measurements, bumps their series' versions and marks the tenant/org as pending for the
 * cron trigger, all in one batch (one transaction), each insert chunked under D1's 100 parameters.
 */
export async function insertMeasurements(db: Database, scope: TenantScope, measurements: readonly Measurement[], now: Date): Promise<void> {
  if (measurements.length === 0) return;
  const rows = measurements.map((measurement) => ({
    tenantKey: scope.tenantKey,
    orgKey: scope.orgKey,
    company: measurement.company,
    code: measurement.code,
    measuredAt: measurement.measuredAt,
    period: toPeriod(measurement.measuredAt),
    // Bound as text: SQLite's INTEGER affinity stores it as an exact 64-bit integer.
    valueMicros: sql`${measurement.valueMicros}`,
  }));
  const series = new Map(measurements.map((measurement) => [JSON.stringify([measurement.company, measurement.code]), measurement]));
  const seriesRows = [...series.values()].map((measurement) => ({
    tenantKey: scope.tenantKey,
    orgKey: scope.orgKey,
    company: measurement.company,
    code: measurement.code,
    version: 1,
    calculatedVersion: 0,
  }));
  const statements: WriteStatement[] = [
    ...chunkForParameters(rows, 7).map((chunk) => db.insert(kpiMeasurements).values(chunk)),
    ...chunkForParameters(seriesRows, 6).map((chunk) =>
      db
        .insert(kpiSeries)
        .values(chunk)
        .onConflictDoUpdate({
          target: [kpiSeries.tenantKey, kpiSeries.orgKey, kpiSeries.company, kpiSeries.code],
          set: { version: sql`${kpiSeries.version} + 1` },
        }),
    ),
    db
      .insert(kpiPendingOrgs)
      .values({ tenantKey: scope.tenantKey, orgKey: scope.orgKey, version: 1, markedOn: now.toISOString() })
      .onConflictDoUpdate({
        target: [kpiPendingOrgs.tenantKey, kpiPendingOrgs.orgKey],
        set: { version: sql`${kpiPendingOrgs.version} + 1`, markedOn: now.toISOString() },
      }),
  ];
  await runWrites(db, statements);
}
