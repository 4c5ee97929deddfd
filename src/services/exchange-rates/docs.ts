/** OpenAPI documentation of the exchange rates documents service: rate lines, lookups, what reads add. */
import * as v from 'valibot';
import type { OperationDoc, ParameterDoc, RouteDocVariant } from '../../http/route';
import { CUSTOM_ATTRIBUTES_OBJECT } from '../../resources/entities/custom-attributes';
import {
  buildAnswerEntries,
  buildAttributeBody,
  buildCreateBody,
  CUSTOM_ATTRIBUTE_VALUE,
  withCustom,
} from '../../resources/entities/doc-schemas';
import type { EntityDocOptions } from '../../resources/entities/doc-schemas';
import { CUSTOM_ATTRIBUTE_NAME, CUSTOM_ATTRIBUTE_REQUEST } from '../../resources/entities/route-docs';
import { findField } from '../../resources/entities/spec';
import { DATE_TIME, GUID } from '../../openapi/values';
import { LINE_ATTRIBUTES, rateLineSpec } from './entity';
import { LINES_PROPERTY, MAX_LINES } from './lines-input';
import { companyInput, pairInput } from './lookup-input';

type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

const ApiLine = buildCreateBody(rateLineSpec);
const LineResource = withCustom(v.strictObject({ id: GUID, ...buildAnswerEntries(rateLineSpec.fields) }), true);

const lineSchemas = { ApiExchangeRatesDocumentExchangeRateDocumentRatesResource: ApiLine, ExchangeRateDocumentRateResource: LineResource };

export const documentEntityDoc: EntityDocOptions = {
  answerExtras: { [LINES_PROPERTY]: v.pipe(v.array(LineResource), v.description('The rate lines of the document')) },
  createExtras: { [LINES_PROPERTY]: v.optional(v.nullable(v.pipe(v.array(ApiLine), v.maxLength(MAX_LINES)))) },
  schemas: lineSchemas,
};

const NUMBER: ParameterDoc = { name: 'number', in: 'path', description: 'Number of the document', schema: { json: { type: 'integer' } } };
const LINE_ID: ParameterDoc = {
  name: 'lineId',
  in: 'path',
  description: 'Identifier of the rate line (GUID)',
  schema: { json: { type: 'string' } },
};

export const insertLineDoc = {
  schemas: lineSchemas,
  parameters: [NUMBER],
  requestBody: {
    description: 'The rate line, bare or as {"value": line, "customAttributes": {...}}',
    schema: v.union([ApiLine, v.strictObject({ value: ApiLine, customAttributes: v.optional(v.nullable(CUSTOM_ATTRIBUTES_OBJECT)) })]),
  },
  responses: {
    204: { description: 'Inserted (empty body)', headers: ['ETag'] },
    400: { description: 'Not valid, a duplicate pair, or no such document (RecordNotFound)' },
  },
  errors: [412],
} satisfies Parts;

function describeLineAttribute(name: string) {
  return {
    summary: `Set the ${name} of a rate line`,
    operationId: `updateExchangeRateDocumentRate${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    pathParams: { attribute: name },
    parameters: [NUMBER, LINE_ID],
    requestBody: {
      description: `The new ${name}: the bare JSON value, or {"value": ...}`,
      schema: buildAttributeBody(name, findField(rateLineSpec, name)),
    },
    responses: {
      200: { description: 'Updated (empty body)', headers: ['ETag'] },
      400: { description: 'Not valid, or no such document or line (RecordNotFound)' },
    },
    errors: [412],
  } satisfies RouteDocVariant;
}

/** One operation per line attribute, plus `{customAttributeName}`. */
export const lineAttributeVariants = [
  ...LINE_ATTRIBUTES.map(describeLineAttribute),
  {
    summary: 'Set a custom attribute (custom_<name>) of a rate line',
    operationId: 'updateExchangeRateDocumentRateCustomAttribute',
    pathParams: { attribute: '{customAttributeName}' },
    schemas: { ExtensibilityCustomAttributeValueResource: CUSTOM_ATTRIBUTE_VALUE },
    parameters: [NUMBER, LINE_ID, CUSTOM_ATTRIBUTE_NAME],
    requestBody: CUSTOM_ATTRIBUTE_REQUEST,
    responses: {
      200: { description: 'Updated (empty body)', headers: ['ETag'] },
      400: { description: 'Not valid for the custom attribute' },
      404: { description: 'No such document, line or attribute' },
    },
    errors: [412],
  } satisfies RouteDocVariant,
];

export const deleteLineDoc = {
  parameters: [NUMBER, LINE_ID],
  responses: { 204: { description: 'Deleted' }, 404: { description: 'No such document or line' } },
  errors: [412],
} satisfies Parts;

const ExchangeCurrencyRate = v.strictObject({
  currencyFromKey: v.string(),
  currencyToKey: v.string(),
  exchangeRate: v.pipe(v.number(), v.description('Units of currencyToKey for one unit of currencyFromKey')),
  exchangeRateDate: v.pipe(DATE_TIME, v.description('validFrom of the document that answered (the asked date for the same currency)')),
});

function describeLookup(input: typeof pairInput) {
  const names = Object.keys(input.fields);
  return {
    schemas: { ExchangeCurrencyRate },
    parameters: names.map((name) => ({
      name,
      in: 'query',
      description: `${input.fields[name]?.description ?? name} (or in the body)`,
      schema: { json: { type: 'string' } },
    })),
    requestBody: {
      description: `The named inputs (${names.join(', ')}) as a JSON object; the query string may carry them instead`,
      schema: buildCreateBody(input),
      required: false,
    },
    responses: {
      200: { description: 'The rate', schema: ExchangeCurrencyRate },
      400: { description: 'Not valid: missing inputs, unknown currencies or company (UnknownReference)' },
      404: { description: 'No active document valid on the date converts the currencies (RecordNotFound)' },
    },
  } satisfies Parts;
}

export const pairLookupDoc = describeLookup(pairInput);
export const companyLookupDoc = describeLookup(companyInput);
