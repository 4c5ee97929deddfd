/** D1 tables: the documents (derived from the entity description) and their rate lines. */
import { defineLineTable } from '../../model/table';
import { defineEntityStore } from '../../resources/entities/store';
import { defineEntityTable } from '../../resources/entities/table';
import { exchangeRatesDocumentSpec, rateLineSpec } from './entity';

export const exchangeRatesDocuments = defineEntityTable(exchangeRatesDocumentSpec);

export const exchangeRatesDocumentStore = defineEntityStore(exchangeRatesDocumentSpec, exchangeRatesDocuments);

/**
 * One row per rate line (derived from the line description): `conversion_factor` is the exact decimal text that was
 * sent (never a REAL). Lines go with their document (ON DELETE CASCADE); one line per (from, to) pair per document;
 * a document's lines are read by document id in line order (`exchange_rate_lines_document_idx`: without it SQLite
 * chose the (tenant, org) prefix of the currency indexes and read every line of the tenant/org).
 */
export const exchangeRateLines = defineLineTable(rateLineSpec, exchangeRatesDocuments);

export type RateLineRow = typeof exchangeRateLines.$inferSelect;
