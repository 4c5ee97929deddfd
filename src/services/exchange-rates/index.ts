/** The exchange rates documents service; every write invalidates the lookup cache. */
import { buildAuditStamp } from '../../resources/entities/handlers';
import type { Decorate } from '../../resources/entities/handlers';
import type { Resource } from '../../resources/entities/resource';
import type { FieldSpecs } from '../../resources/entities/spec';
import { checkEntityCreate, deriveEntityTemplate } from '../../resources/entities/import-template';
import type { ImportTemplate } from '../../resources/entities/import-template';
import { defineEntityService } from '../../resources/entities/service';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { reactAfterWrite } from '../../http/write-reaction';
import type { WriteReaction } from '../../http/write-reaction';
import { companyLookupDoc, deleteLineDoc, documentEntityDoc, insertLineDoc, lineAttributeVariants, pairLookupDoc } from './docs';
import { EXCHANGE_RATES_BASE, exchangeRatesDocumentSpec, rateLineSpec } from './entity';
import { collectCurrencyUses, LINES_PROPERTY, parseLinesInput } from './lines-input';
import { handleLineDelete, handleLineInsert, handleLineAttributeUpdate } from './lines-routes';
import { buildLineInserts, listLinesOf } from './lines-store';
import { applyGroupToLines } from './group-lines';
import { toLineResource } from './line-resource';
import { documentsImportWriter } from './import-writer';
import { handleRateLookup, handleRateLookupByCompany } from './lookup-routes';
import { bumpRatesGeneration } from './rate-cache';
import { exchangeRatesDocumentStore } from './table';

/** Reads and lists carry the document's rate lines (in an atomic group, as the group leaves them). */
const decorateWithLines: Decorate = async (ctx, rows, resources) => {
  const ids = rows.map((row) => String(row.id));
  const stored = await listLinesOf(ctx.tenant, ids);
  // In an atomic group of `$batch`: the lines as the group's line writes leave them.
  const lines = ctx.tenant.group ? applyGroupToLines(ctx.tenant.group.overlay, ids, stored) : stored;
  const byDocument = new Map<string, Resource[]>();
  for (const line of lines) {
    const list = byDocument.get(line.parentId) ?? [];
    list.push(toLineResource(line));
    byDocument.set(line.parentId, list);
  }
  rows.forEach((row, index) => {
    const resource = resources[index];
    if (resource) resource[LINES_PROPERTY] = byDocument.get(String(row.id)) ?? [];
  });
};

/**
 * Bumps the tenant/org's rates generation before a write's answer leaves: once a write is acknowledged, no lookup
 * can be served from an entry cached before it.
 */
const invalidateRates: WriteReaction = async (ctx) => {
  await bumpRatesGeneration(ctx.platform, ctx.scope);
};

/** A write route of the service, followed by the invalidation. */
function invalidateRatesAfter(route: ApiRoute): ApiRoute {
  return route.method === 'GET' ? route : { ...route, handle: (ctx) => reactAfterWrite(ctx, () => route.handle(ctx), invalidateRates) };
}

const tags = ['Exchange rates documents'];
const LINES_PATH = `${EXCHANGE_RATES_BASE}/:number/${LINES_PROPERTY}`;

const lookupRoutes: ApiRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: `${EXCHANGE_RATES_BASE}/getCurrencyExchangeRates`,
    scope: 'application',
    doc: {
      summary: 'Exchange rate from one currency to another on a date (direct, inverse or cross)',
      tags,
      operationId: 'getCurrencyExchangeRates',
      ...pairLookupDoc,
    },
    readOnly: true,
    handle: handleRateLookup,
  }),
  defineApiRoute({
    method: 'POST',
    path: `${EXCHANGE_RATES_BASE}/getCurrencyExchangeRatesByCompany`,
    scope: 'application',
    doc: {
      summary: "Exchange rate from a currency into a company's base currency",
      tags,
      operationId: 'getCurrencyExchangeRatesByCompany',
      ...companyLookupDoc,
    },
    readOnly: true,
    handle: handleRateLookupByCompany,
  }),
];

const lineRoutes: ApiRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: LINES_PATH,
    scope: 'application',
    doc: {
      summary: 'Insert a rate line into a document (204)',
      tags,
      operationId: 'insertExchangeRateDocumentRate',
      ...insertLineDoc,
    },
    handle: handleLineInsert,
  }),
  defineApiRoute({
    method: 'PUT',
    path: `${LINES_PATH}/:lineId/:attribute`,
    scope: 'application',
    doc: {
      summary: 'Set an attribute (or custom_<name>) of a rate line',
      tags,
      operationId: 'updateExchangeRateDocumentRate',
      variants: lineAttributeVariants,
    },
    handle: handleLineAttributeUpdate,
  }),
  defineApiRoute({
    method: 'DELETE',
    path: `${LINES_PATH}/:lineId`,
    scope: 'application',
    doc: { summary: 'Delete a rate line', tags, operationId: 'deleteExchangeRateDocumentRate', ...deleteLineDoc },
    handle: handleLineDelete,
  }),
];

const entity = defineEntityService(exchangeRatesDocumentStore, {
  routes: lineRoutes,
  decorate: decorateWithLines,
  doc: documentEntityDoc,
  create: {
    extraProperties: [LINES_PROPERTY],
    body: { exactNumberKeys: ['conversionFactor'] },
    validateExtra: (extra) => parseLinesInput(extra).errors,
    prepare: async (_ctx, _values, extra) => ({
      uses: collectCurrencyUses(parseLinesInput(extra).lines, (index) => `${LINES_PROPERTY}.${index}`),
    }),
    statements: (ctx, id, _values, extra) => buildLineInserts(ctx.tenant.scope, id, parseLinesInput(extra).lines, buildAuditStamp(ctx)),
  },
});

/** Exchange rates documents: documents with rate lines, and lookups served from a cache. */
/** One file row per rate line: the document's columns (repeated on each line of a document, grouped by `number`) and the line's. */
const LINE_COLUMNS = Object.entries(rateLineSpec.fields as FieldSpecs).map(([name, field]) => ({
  name,
  required: field.required === true,
}));
const checkDocument = checkEntityCreate(exchangeRatesDocumentSpec, {
  extraProperties: [LINES_PROPERTY],
  validateExtra: (extra) => parseLinesInput(extra).errors,
});
/**
 * A row is a document with one line, checked as POST /exchangeRatesDocuments checks it (a line's paths: its column);
 * consecutive rows of one number are one document, written as the create and the line operations write them.
 */
const documentsTemplate: ImportTemplate = {
  ...deriveEntityTemplate(exchangeRatesDocumentSpec, {
    extra: LINE_COLUMNS,
    check: (body) => {
      const document: Record<string, unknown> = {};
      const line: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(body)) {
        if (LINE_COLUMNS.some((column) => column.name === name)) line[name] = value;
        else document[name] = value;
      }
      const linePrefix = new RegExp(`^${LINES_PROPERTY}\\.0\\.?`);
      return checkDocument({ ...document, [LINES_PROPERTY]: [line] }).map((error) => ({
        ...error,
        path: error.path.replace(linePrefix, ''),
      }));
    },
  }),
  writer: documentsImportWriter,
};

export const exchangeRatesService = {
  name: 'exchangeRates',
  importTemplates: [documentsTemplate],
  routes: [...lookupRoutes, ...entity.routes.map(invalidateRatesAfter)],
  stores: entity.stores,
  lines: [rateLineSpec],
  // Company writes change base currencies: the lookups by company must not answer from before them.
  referenceWriteReactions: [{ kind: 'companies', react: invalidateRates }],
};
