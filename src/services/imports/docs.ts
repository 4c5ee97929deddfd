/** OpenAPI documentation of the import data info operations. */
import * as v from 'valibot';
import type { OperationDoc } from '../../http/route';
import { ENUM_METADATA } from '../../validation/enums';
import { DATE_TIME, GUID, INTEGER } from '../../openapi/values';
import { ImportDataState, ReturnMessageType } from './states';
import { changeFields, LAST_IMPORTS_DEFAULT, LAST_IMPORTS_MAX, registerFields, revertFields } from './validate';

type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

const text = v.nullable(v.string());
const enumOf = (spec: typeof ImportDataState | typeof ReturnMessageType) =>
  v.pipe(v.number(), v.integer(), v.metadata({ [ENUM_METADATA]: spec }));

const ImportDataInfoResource = v.strictObject({
  id: GUID,
  key: INTEGER,
  importDataTemplate: v.string(),
  originalFileName: text,
  cloudFileName: text,
  importDataState: enumOf(ImportDataState),
  importName: text,
  detailLog: text,
  error: text,
  lastProgressUpdateOn: v.nullable(DATE_TIME),
  drillDownOperation: text,
  reverted: v.boolean(),
  createdOn: DATE_TIME,
  createdBy: v.string(),
  modifiedOn: DATE_TIME,
  modifiedBy: v.string(),
  version: INTEGER,
});

const ImportInfoResource = v.strictObject(changeFields);
const ApiImportDataInfoResource = v.strictObject(registerFields);
const RevertImport = v.strictObject({ revertedTypeMessage: enumOf(ReturnMessageType), message: v.string() });

const schemas = { ImportDataInfoResource, ImportInfoResource, ApiImportDataInfoResource, RevertImport };

export const validateStateDoc = {
  schemas,
  parameters: [{ name: 'id', in: 'query', required: true, description: 'Identifier of the import (GUID)', schema: GUID }],
  responses: {
    200: {
      description: 'The import (a Processing import without progress for 30 minutes is first marked Fatal)',
      schema: ImportDataInfoResource,
    },
  },
} satisfies Parts;

export const lastImportsDoc = {
  schemas,
  parameters: [
    { name: 'templateId', in: 'query', required: true, description: 'The import data template', schema: { json: { type: 'string' } } },
    {
      name: 'top',
      in: 'query',
      description: `How many (default ${LAST_IMPORTS_DEFAULT}, at most ${LAST_IMPORTS_MAX}); $top too`,
      schema: { json: { type: 'integer', minimum: 1, maximum: LAST_IMPORTS_MAX } },
    },
  ],
  responses: { 200: { description: "The template's imports, newest first", schema: v.array(ImportDataInfoResource) } },
} satisfies Parts;

export const changeDoc = {
  schemas,
  requestBody: {
    description:
      'ImportInfoResource: importId and the changes; importDataState follows the allowed transitions (400 InvalidStateTransition otherwise)',
    schema: ImportInfoResource,
  },
  responses: {
    200: { description: 'Changed (empty body); a terminal state given again changes nothing' },
    400: { description: 'Not valid, another tenant/subscription, or a refused transition (InvalidStateTransition)' },
    404: { description: 'No import has this importId' },
  },
} satisfies Parts;

export const revertDoc = {
  schemas,
  parameters: [
    { name: 'templateKey', in: 'query', description: 'The import data template (or in the body)', schema: { json: { type: 'string' } } },
  ],
  requestBody: {
    description: '{"templateKey": "..."} (or the query string)',
    required: false,
    schema: v.strictObject(revertFields),
  },
  responses: {
    200: { description: 'Information when an import was reverted; Warning when there was nothing to revert', schema: RevertImport },
  },
} satisfies Parts;

export const registerDoc = {
  schemas,
  requestBody: {
    description: 'The import to register (state Pending; key = the next integer of the tenant/org)',
    schema: ApiImportDataInfoResource,
  },
  responses: { 201: { description: 'Registered: the body is the new import id', schema: GUID, headers: ['Location'] } },
} satisfies Parts;

export const readImportDoc = {
  schemas,
  parameters: [{ name: 'id', in: 'path', description: 'Identifier of the import (GUID)', schema: { json: { type: 'string' } } }],
  responses: { 200: { description: 'The import', schema: ImportDataInfoResource }, 404: { description: 'No import has this id' } },
} satisfies Parts;
