/**
 * Every D1 table, for drizzle-kit (`npm run db:generate` writes migrations/ from this file).
 * Tables are derived from the entity and reference-kind descriptions; export each one here.
 */
import { readReferenceTable } from '../reference/tables';

export { emailTemplates } from '../services/email-templates/table';

export const refCultures = readReferenceTable('cultures');
export const refCurrencies = readReferenceTable('currencies');
export const refCustomAttributes = readReferenceTable('customAttributes');
