/** D1 tables: the documents (derived from the entity description) and their rate lines. */
import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { defineEntityStore } from '../../resources/entities/store';
import { defineEntityTable } from '../../resources/entities/table';
import { exchangeRatesDocumentSpec } from './entity';

export const exchangeRatesDocuments = defineEntityTable(exchangeRatesDocumentSpec);

export const exchangeRatesDocumentStore = defineEntityStore(exchangeRatesDocumentSpec, exchangeRatesDocuments);

/**
 * One row per rate line. `conversion_factor` is the exact decimal text that was sent (never a REAL).
 * Lines go with their document (ON DELETE CASCADE); one line per (from, to) pair per document.
 */
export const exchangeRateLines = sqliteTable(
  'exchange_rate_lines',
  {
    id: text('id').primaryKey(),
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
    documentId: text('document_id')
      .notNull()
      .references(() => exchangeRatesDocuments.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    fromCurrency: text('from_currency').notNull(),
    toCurrency: text('to_currency').notNull(),
    conversionFactor: text('conversion_factor').notNull(),
    fromExchangeRateId: text('from_exchange_rate_id'),
    toExchangeRateId: text('to_exchange_rate_id'),
    customAttributes: text('custom_attributes'),
    createdOn: text('created_on').notNull(),
    createdBy: text('created_by').notNull(),
    modifiedOn: text('modified_on').notNull(),
    modifiedBy: text('modified_by').notNull(),
  },
  (table) => [
    uniqueIndex('exchange_rate_lines_pair_uq').on(table.documentId, table.fromCurrency, table.toCurrency),
    index('exchange_rate_lines_from_idx').on(table.tenantKey, table.orgKey, table.fromCurrency, table.toCurrency),
    index('exchange_rate_lines_to_idx').on(table.tenantKey, table.orgKey, table.toCurrency),
    // A document's lines (reads by document ids, in line order): without it SQLite chose the (tenant, org) prefix of
    // the currency indexes and read every line of the tenant/org (400 ms at 1,000,000 documents; now flat).
    index('exchange_rate_lines_document_idx').on(table.tenantKey, table.orgKey, table.documentId, table.lineNo),
    check('exchange_rate_lines_currencies_differ', sql`${table.fromCurrency} <> ${table.toCurrency}`),
  ],
);

export type RateLineRow = typeof exchangeRateLines.$inferSelect;
