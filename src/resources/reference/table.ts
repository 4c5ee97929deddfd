/** Each reference kind's D1 table (drizzle), derived from its description by the model (src/model/table.ts). */
import { defineReferenceTable, defineStandardTable } from '../../model/table';
import type { ReferenceKindSpec } from './spec';

export { defineStandardTable, defineReferenceTable as defineTenantReferenceTable };

export type StandardTable<S extends ReferenceKindSpec = ReferenceKindSpec> = ReturnType<typeof defineStandardTable<S>>;
export type TenantReferenceTable<S extends ReferenceKindSpec = ReferenceKindSpec> = ReturnType<typeof defineReferenceTable<S>>;
