/** OpenAPI documentation of the import data info operations. */
import * as v from 'valibot';
import type { OperationDoc, ParameterDoc } from '../../http/route';
import { MAX_IMPORT_FILE_BYTES } from './files/limits';
import { ENUM_METADATA } from '../../validation/enums';
import { DATE_TIME, GUID, INTEGER } from '../../openapi/values';
import { ImportDataState, ReturnMessageType, UndoState } from './states';
import { changeFields, LAST_IMPORTS_DEFAULT, LAST_IMPORTS_MAX, registerFields, revertFields } from './validate';

type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

const text = v.nullable(v.string());
const enumOf = (spec: typeof ImportDataState | typeof ReturnMessageType | typeof UndoState) =>
  v.pipe(v.number(), v.integer(), v.metadata({ [ENUM_METADATA]: spec }));

const RevertImport = v.strictObject({ revertedTypeMessage: enumOf(ReturnMessageType), message: v.string() });

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
  fileFormat: v.nullable(v.picklist(['csv', 'ndjson', 'json', 'xlsx'])),
  mode: v.nullable(v.picklist(['create', 'upsert'])),
  dryRun: v.nullable(v.boolean()),
  failOnErrors: v.nullable(v.boolean()),
  rowsRead: v.nullable(INTEGER),
  rowsCreated: v.nullable(INTEGER),
  rowsUpdated: v.nullable(INTEGER),
  rowsFailed: v.nullable(INTEGER),
  undoState: v.nullable(enumOf(UndoState)),
  rowsUndone: v.nullable(INTEGER),
  revertResult: v.nullable(RevertImport),
  createdOn: DATE_TIME,
  createdBy: v.string(),
  modifiedOn: DATE_TIME,
  modifiedBy: v.string(),
  version: INTEGER,
});

const ImportInfoResource = v.strictObject(changeFields);
const ApiImportDataInfoResource = v.strictObject(registerFields);

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
    200: {
      description:
        'Information when an import was reverted; Warning when there was nothing to revert. A file import is undone in the ' +
        'background: the Information says so and names its URL, where undoState, rowsUndone and then revertResult (this ' +
        'answer for what the revert did) show it',
      schema: RevertImport,
    },
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

const flag = (name: string, description: string): ParameterDoc => ({
  name,
  in: 'query',
  description,
  schema: { json: { type: 'boolean', default: false } },
});

export const uploadDoc = {
  schemas,
  description:
    'The file is the body (text/csv: UTF-8 with or without BOM, `,` or `;`; application/x-ndjson; application/json: an array ' +
    'of objects; .xlsx: the first worksheet), streamed to storage, at most ' +
    `${MAX_IMPORT_FILE_BYTES} bytes (256 MiB; 413 before anything is stored). The first row (a JSON item's properties) ` +
    "names the columns: the API's field names, case-insensitive, custom_<name> where the records take custom attributes; " +
    'unknown, repeated or missing required columns are a 400 (for .xlsx: when the import starts, which then ends Fatal). ' +
    'Content-Disposition `filename` becomes originalFileName. Answers the Pending import and its Location.',
  parameters: [
    { name: 'importDataTemplate', in: 'query', required: true, description: 'The import template', schema: { json: { type: 'string' } } },
    {
      name: 'mode',
      in: 'query',
      description:
        'create (default): every row is a new record; upsert: a row whose natural key exists updates that record (reference ' +
        'kinds: as PUT /referenceData/{kind}; exchangeRatesDocuments: a stored document gets the lines it lacks; ' +
        'kpiMeasurements: appended in both modes)',
      schema: { json: { type: 'string', enum: ['create', 'upsert'], default: 'create' } },
    },
    flag('dryRun', 'Validate every row, write nothing'),
    flag('failOnErrors', 'Any failed row fails the import with nothing left written'),
  ],
  requestBody: {
    description: 'The file (text/csv, application/x-ndjson, application/json or .xlsx)',
    contentType: 'text/csv',
    moreContentTypes: ['application/x-ndjson', 'application/json', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    schema: { json: { type: 'string' } },
  },
  responses: { 202: { description: 'Stored: the Pending import', schema: ImportDataInfoResource, headers: ['Location'] } },
} satisfies Parts;

const idParameter: ParameterDoc = {
  name: 'id',
  in: 'path',
  description: 'Identifier of the import (GUID)',
  schema: { json: { type: 'string' } },
};

export const failuresDoc = {
  schemas,
  description:
    "The rows of a file import that failed, as CSV: `row` (the file's row number; the header row is 1), `column`, `message` " +
    "(in the Accept-Language's language), then the row's values under the file's column names; one line per problem. " +
    "Cells a spreadsheet would run as a formula start with `'`. An import without failures answers the header line only.",
  parameters: [idParameter],
  responses: {
    200: { description: 'The failed rows (text/csv)', contentType: 'text/csv', schema: v.string() },
    404: { description: 'No import has this id' },
  },
} satisfies Parts;

export const cancelDoc = {
  schemas,
  description:
    'A Pending or Processing file import becomes Failed (detailLog: Cancelled), answered at once; its processing stops at ' +
    'its next step and deletes every record it created (with its `deleted` event) in steps: undoState 1 (Undoing, ' +
    'rowsUndone counting), then 2 (Undone). An import that has ended: 400 InvalidStateTransition.',
  parameters: [idParameter],
  responses: {
    200: { description: 'The cancelled import', schema: ImportDataInfoResource },
    404: { description: 'No import has this id' },
  },
} satisfies Parts;
