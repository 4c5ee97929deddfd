/** Every route of the exchange rates documents service (SPEC 4.5); writes invalidate the lookup cache. */
import { buildAuditStamp } from '../../entities/handlers';
import type { Decorate } from '../../entities/handlers';
import type { Resource } from '../../entities/resource';
import { buildEntityRoutes } from '../../entities/routes';
import { defineEntityStore } from '../../entities/store';
import { ApiError } from '../../http/errors';
import type { ApiRoute } from '../../http/route';
import { companyLookupDoc, deleteLineDoc, documentEntityDoc, insertLineDoc, lineAttributeVariants, pairLookupDoc } from './docs';
import { EXCHANGE_RATES_BASE, exchangeRatesDocumentSpec } from './entity';
import { collectCurrencyUses, LINES_PROPERTY, parseLinesInput } from './lines-input';
import { deleteLine, insertLine, updateLineAttribute } from './lines-routes';
import { buildLineInserts, listLinesOf } from './lines-store';
import { toLineResource } from './line-resource';
import { getCurrencyExchangeRates, getCurrencyExchangeRatesByCompany } from './lookup-routes';
import { bumpRatesGeneration } from './rate-cache';
import { exchangeRatesDocuments } from './table';

export const exchangeRatesDocumentStore = defineEntityStore(exchangeRatesDocumentSpec, exchangeRatesDocuments);

/** Reads and lists carry the document's rate lines. */
const decorateWithLines: Decorate = async (ctx, rows, resources) => {
  const lines = await listLinesOf(
    ctx.db,
    ctx.scope,
    rows.map((row) => String(row.id)),
  );
  const byDocument = new Map<string, Resource[]>();
  for (const line of lines) {
    const list = byDocument.get(line.documentId) ?? [];
    list.push(toLineResource(line));
    byDocument.set(line.documentId, list);
  }
  rows.forEach((row, index) => {
    const resource = resources[index];
    if (resource) resource[LINES_PROPERTY] = byDocument.get(String(row.id)) ?? [];
  });
};

/**
 * Runs a write, then bumps the tenant/org's rates generation before the answer leaves: once a write is
 * acknowledged, no lookup can be served from an entry cached before it. A write that failed with an ApiError
 * changed nothing; any other failure might have committed, so it bumps too.
 */
export function invalidateRatesAfter(route: ApiRoute): ApiRoute {
  return {
    ...route,
    handle: async (ctx) => {
      let response: Response;
      try {
        response = await route.handle(ctx);
      } catch (error) {
        if (!(error instanceof ApiError)) await bumpRatesGeneration(ctx.platform, ctx.scope).catch(() => undefined);
        throw error;
      }
      if (response.status < 300) await bumpRatesGeneration(ctx.platform, ctx.scope);
      return response;
    },
  };
}

/** Company writes (`PUT|DELETE /referenceData/companies...`) change base currencies: they invalidate too. */
export function invalidateRatesOnCompanyWrite(route: ApiRoute): ApiRoute {
  if (route.method === 'GET' || !route.path.startsWith('/referenceData/')) return route;
  const wrapped = invalidateRatesAfter(route);
  return { ...route, handle: (ctx) => (ctx.params.kind === 'companies' ? wrapped.handle(ctx) : route.handle(ctx)) };
}

const tags = ['Exchange rates documents'];
const LINES_PATH = `${EXCHANGE_RATES_BASE}/:number/${LINES_PROPERTY}`;

const lookupRoutes: ApiRoute[] = [
  {
    method: 'POST',
    path: `${EXCHANGE_RATES_BASE}/getCurrencyExchangeRates`,
    scope: 'application',
    doc: {
      summary: 'Exchange rate from one currency to another on a date (direct, inverse or cross)',
      tags,
      operationId: 'getCurrencyExchangeRates',
      kind: 'custom',
      ...pairLookupDoc,
    },
    handle: getCurrencyExchangeRates,
  },
  {
    method: 'POST',
    path: `${EXCHANGE_RATES_BASE}/getCurrencyExchangeRatesByCompany`,
    scope: 'application',
    doc: {
      summary: "Exchange rate from a currency into a company's base currency",
      tags,
      operationId: 'getCurrencyExchangeRatesByCompany',
      kind: 'custom',
      ...companyLookupDoc,
    },
    handle: getCurrencyExchangeRatesByCompany,
  },
];

const lineRoutes: ApiRoute[] = [
  {
    method: 'POST',
    path: LINES_PATH,
    scope: 'application',
    doc: {
      summary: 'Insert a rate line into a document (204)',
      tags,
      operationId: 'insertExchangeRateDocumentRate',
      kind: 'custom',
      ...insertLineDoc,
    },
    handle: insertLine,
  },
  {
    method: 'PUT',
    path: `${LINES_PATH}/:lineId/:attribute`,
    scope: 'application',
    doc: {
      summary: 'Set an attribute (or custom_<name>) of a rate line',
      tags,
      operationId: 'updateExchangeRateDocumentRate',
      kind: 'custom',
      variants: lineAttributeVariants,
    },
    handle: updateLineAttribute,
  },
  {
    method: 'DELETE',
    path: `${LINES_PATH}/:lineId`,
    scope: 'application',
    doc: { summary: 'Delete a rate line', tags, operationId: 'deleteExchangeRateDocumentRate', kind: 'custom', ...deleteLineDoc },
    handle: deleteLine,
  },
];

const entityRoutes = buildEntityRoutes(exchangeRatesDocumentStore, {
  decorate: decorateWithLines,
  doc: documentEntityDoc,
  create: {
    extraProperties: [LINES_PROPERTY],
    body: { exactNumberKeys: ['conversionFactor'] },
    validateExtra: (extra) => parseLinesInput(extra).errors,
    prepare: async (_ctx, _values, extra) => ({
      uses: collectCurrencyUses(parseLinesInput(extra).lines, (index) => `${LINES_PROPERTY}.${index}`),
    }),
    statements: (ctx, id, _values, extra) => buildLineInserts(ctx.db, ctx.scope, id, parseLinesInput(extra).lines, buildAuditStamp(ctx)),
  },
});

export const exchangeRatesRoutes: readonly ApiRoute[] = [
  ...lookupRoutes,
  ...[...lineRoutes, ...entityRoutes].map((route) => (route.method === 'GET' ? route : invalidateRatesAfter(route))),
];
