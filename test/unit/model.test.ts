/**
 * The resource model (src/model/): each description's row type is the inferred output of its valibot row schema, and
 * the table derived from the same description stores exactly those rows.
 */
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildRowSchema } from '../../src/model/types';
import type { AnyRow, Input, Patch, Row } from '../../src/model/types';
import { emailTemplateSpec } from '../../src/services/email-templates/entity';
import type { emailTemplates } from '../../src/services/email-templates/table';
import type { rateLineSpec } from '../../src/services/exchange-rates/entity';
import type { exchangeRateLines } from '../../src/services/exchange-rates/table';
import type { kpiMeasurementResource } from '../../src/services/indicators/resources';
import type { kpiMeasurements } from '../../src/services/indicators/tables';
import { companiesKind, kpiDefinitionsKind } from '../../src/resources/reference/kinds';
import type { refCompanies } from '../../src/resources/reference/tables';

/** A stored row without its tenant/org columns (what the model's row describes). */
type Stored<T> = Omit<T, 'tenantKey' | 'orgKey'>;

const template = {
  id: '8a3f0c47-3f3c-4a5e-9a55-3f9d7cc0f001',
  templateKey: 'welcome',
  subject: 'Hello',
  emailTemplateType: 1,
  notificationBody: 'Body',
  culture: 'en-US',
  description: null,
  customAttributes: null,
  isActive: true,
  createdOn: '2026-01-01T00:00:00.000Z',
  createdBy: 'tests',
  modifiedOn: '2026-01-01T00:00:00.000Z',
  modifiedBy: 'tests',
  version: 1,
};

describe('resource model', () => {
  it('types an entity row as its row schema infers it, and the derived table stores that row', () => {
    expectTypeOf<Row<typeof emailTemplateSpec>>().toEqualTypeOf<
      v.InferOutput<ReturnType<typeof buildRowSchema<typeof emailTemplateSpec>>>
    >();
    expectTypeOf<Row<typeof emailTemplateSpec>['templateKey']>().toEqualTypeOf<string>();
    expectTypeOf<Row<typeof emailTemplateSpec>['description']>().toEqualTypeOf<string | null>();
    expectTypeOf<Row<typeof emailTemplateSpec>['version']>().toEqualTypeOf<number>();
    expectTypeOf<Stored<typeof emailTemplates.$inferSelect>>().toMatchTypeOf<Row<typeof emailTemplateSpec>>();
    expect(v.parse(buildRowSchema(emailTemplateSpec), template)).toEqual(template);
    expect(v.safeParse(buildRowSchema(emailTemplateSpec), { ...template, templateKey: null }).success).toBe(false);
  });

  it('types reference records, with defaulted flags and key lists never null', () => {
    expectTypeOf<Row<typeof kpiDefinitionsKind>['higherIsBetter']>().toEqualTypeOf<boolean>();
    expectTypeOf<Row<typeof kpiDefinitionsKind>['valueType']>().toEqualTypeOf<'Number' | 'Percentage' | 'Currency' | 'Duration'>();
    expectTypeOf<Stored<typeof refCompanies.$inferSelect>>().toMatchTypeOf<Row<typeof companiesKind>>();
    const record = { id: 'c1', key: 'C1', name: 'Company', baseCurrency: 'EUR' };
    expect(v.parse(buildRowSchema(companiesKind), record)).toEqual(record);
    expect(v.safeParse(buildRowSchema(kpiDefinitionsKind), { id: 'k', key: 'K', name: 'K', valueType: 'Other' }).success).toBe(false);
  });

  it('types lines and plain rows the same way', () => {
    expectTypeOf<Row<typeof rateLineSpec>['conversionFactor']>().toEqualTypeOf<string>();
    expectTypeOf<Row<typeof rateLineSpec>['parentId']>().toEqualTypeOf<string>();
    expectTypeOf<Stored<typeof exchangeRateLines.$inferSelect>>().toMatchTypeOf<Row<typeof rateLineSpec>>();
    expectTypeOf<Row<typeof kpiMeasurementResource>['id']>().toEqualTypeOf<number>();
    expectTypeOf<Stored<typeof kpiMeasurements.$inferSelect>>().toMatchTypeOf<Row<typeof kpiMeasurementResource>>();
  });

  it('derives input and patch types: required fields required, optional ones nullable, patches partial', () => {
    expectTypeOf<Input<typeof emailTemplateSpec>['templateKey']>().toEqualTypeOf<string>();
    expectTypeOf<Input<typeof emailTemplateSpec>['description']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Patch<typeof emailTemplateSpec>['subject']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Row<typeof emailTemplateSpec>>().toMatchTypeOf<AnyRow>();
  });
});
