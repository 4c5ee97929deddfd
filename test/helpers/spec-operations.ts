/**
 * Every operation of the five specified services (70; docs/api-reference.md), as `METHOD path` of the OpenAPI
 * document. Two specified operations that share one path template (`/{id}` and `/{templateKey}`; `/{id}` and `/{number}`) are one documented path.
 */
/** Path templates of the documented operations: the API prefix, then one base per service. */
export const A = '/api/{tenantKey}/{orgKey}';
export const ET = `${A}/operations/emailTemplates`;
export const IM = `${A}/corePatterns/importDataInfos`;
export const IN = `${A}/maintenance/indicators`;
export const RO = `${A}/assetManagementCore/routes`;
export const EX = `${A}/businessCore/exchangeRatesDocuments`;
export const LINE = `${EX}/{number}/exchangeRateDocumentRates`;

const put = (base: string, names: readonly string[]) => names.map((name) => `PUT ${base}/${name}`);

export const SPEC_OPERATIONS: readonly string[] = [
  // 4.1 Email templates (13)
  `GET ${ET}/odata`,
  `GET ${ET}/{idOrTemplateKey}`, // GET /{id}
  `GET ${ET}/{idOrTemplateKey}`, // GET /{templateKey}
  `POST ${ET}`,
  ...put(`${ET}/{templateKey}`, ['culture', 'description', 'emailTemplateType', 'isActive', 'notificationBody', 'subject', 'templateKey']),
  `DELETE ${ET}/{idOrTemplateKey}`, // DELETE /{id}
  `DELETE ${ET}/{idOrTemplateKey}`, // DELETE /{templateKey}
  // 4.2 Import data info (4)
  `GET ${IM}/validateImportDataState`,
  `GET ${IM}/getLastImports`,
  `POST ${IM}/changeDataImport`,
  `POST ${IM}/revertImportFile`,
  // 4.3 Indicators (3)
  `GET ${IN}/getIndicatorSummaryByCode/{companyKey}/{code}`,
  `GET ${IN}/kpiChart/{company}/{code}`,
  `POST ${IN}/assetsRecalculateKPIs/{workerConfigurationKey}`,
  // 4.4 Routes (26)
  `GET ${RO}/odata`,
  `GET ${RO}/{id}`,
  `GET ${RO}/{companyKey}/{routeKey}`,
  `GET ${RO}/getMaintenanceNotificationTemplateParameters/{companyKey}/{routeKey}`,
  `POST ${RO}`,
  ...['locations', 'equipmentitems'].flatMap((kind) =>
    ['add', 'addById', 'remove', 'removeById'].map((verb) => `POST ${RO}/{routeKey}/${kind}/${verb}`),
  ),
  ...put(`${RO}/{companyKey}/{routeKey}`, [
    'brand',
    'brandModel',
    'company',
    'description',
    'family',
    'isActive',
    'locationFunction',
    'remarks',
    'responsible',
    'routeKey',
    '{customAttributeName}',
  ]),
  `DELETE ${RO}/{id}`,
  `DELETE ${RO}/{companyKey}/{routeKey}`,
  // 4.5 Exchange rates documents (24)
  `GET ${EX}/odata`,
  `GET ${EX}/{idOrNumber}`, // GET /{id}
  `GET ${EX}/{idOrNumber}`, // GET /{number}
  `POST ${EX}`,
  `POST ${LINE}`,
  `POST ${EX}/getCurrencyExchangeRates`,
  `POST ${EX}/getCurrencyExchangeRatesByCompany`,
  ...put(`${EX}/{number}`, [
    'exchangeRateType',
    'externalId',
    'externalVersion',
    'isActive',
    'isExternallyManaged',
    'number',
    'validFrom',
    '{customAttributeName}',
  ]),
  ...put(`${LINE}/{lineId}`, [
    'conversionFactor',
    'fromCurrency',
    'fromExchangeRateId',
    'toCurrency',
    'toExchangeRateId',
    '{customAttributeName}',
  ]),
  `DELETE ${LINE}/{lineId}`,
  `DELETE ${EX}/{idOrNumber}`, // DELETE /{id}
  `DELETE ${EX}/{idOrNumber}`, // DELETE /{number}
];

/** Extensions beyond the specified operations: public routes, custom attribute PUTs, imports, measurements, reference data, API clients. */
export const EXTENSION_OPERATIONS: readonly string[] = [
  `PUT ${ET}/{templateKey}/{customAttributeName}`,
  `POST ${ET}/{templateKey}/render`,
  `GET ${ET}/{templateKey}/placeholders`,
  'GET /health',
  'GET /openapi.json',
  'GET /docs',
  `POST ${IM}`,
  `POST ${IM}/files`,
  `GET ${IM}/{id}/failures`,
  `POST ${IM}/{id}/cancel`,
  `GET ${IM}/{id}`,
  `POST ${IN}/measurements`,
  `GET ${A}/referenceData/{kind}`,
  `PUT ${A}/referenceData/{kind}`,
  `DELETE ${A}/referenceData/{kind}/{key}`,
  'POST /connect/token',
  `POST ${A}/identity/apiClients`,
  `GET ${A}/identity/apiClients`,
  `GET ${A}/identity/apiClients/{clientId}`,
  `POST ${A}/identity/apiClients/{clientId}/revoke`,
  `POST ${A}/identity/apiClients/{clientId}/secret`,
  `DELETE ${A}/identity/apiClients/{clientId}`,
  `GET ${A}/changes`,
  `GET ${A}/changes/stream`,
  `POST ${A}/changes/tickets`,
  `GET ${A}/subscriptions`,
  `POST ${A}/subscriptions`,
  `GET ${A}/subscriptions/{id}`,
  `DELETE ${A}/subscriptions/{id}`,
  `POST ${A}/subscriptions/{id}/renew`,
  `GET ${A}/subscriptions/{id}/deliveries`,
  `POST ${A}/$batch`,
  // Whole-record updates (PATCH merges, PUT replaces), on every path that names a record
  `PATCH ${ET}/{idOrTemplateKey}`,
  `PUT ${ET}/{idOrTemplateKey}`,
  `PATCH ${RO}/{id}`,
  `PUT ${RO}/{id}`,
  `PATCH ${RO}/{companyKey}/{routeKey}`,
  `PUT ${RO}/{companyKey}/{routeKey}`,
  `PATCH ${EX}/{idOrNumber}`,
  `PUT ${EX}/{idOrNumber}`,
];
