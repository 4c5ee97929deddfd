/** Validation of the import operations' inputs (valibot), naming every bad field at once. */
import * as v from 'valibot';
import { buildFieldSchema } from '../../resources/entities/field-schema';
import type { FieldSpec } from '../../resources/entities/spec';
import type { FieldError } from '../../errors/api-error';
import { validationError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import { issuesToErrors } from '../../validation/issues';
import { bindPropertyNames } from '../../validation/property-names';
import { requireValue } from '../../validation/required';
import { isPlainObject, parseInteger } from '../../validation/values';
import { ImportDataState, isImportState } from './states';
import type { ImportChange } from './commands';

type AnySchema = v.GenericSchema<unknown, unknown>;

const TEXT_MAX = 1000;
const LOG_MAX = 512 * 1024;
export const LAST_IMPORTS_DEFAULT = 10;
export const LAST_IMPORTS_MAX = 100;

function describe(kind: FieldSpec['kind'], description: string, extra: Partial<FieldSpec> = {}): FieldSpec {
  return { kind, column: '', description, ...extra };
}

function required(name: string, field: FieldSpec): AnySchema {
  return requireValue(name, buildFieldSchema(name, { ...field, required: true }));
}

function optional(name: string, field: FieldSpec): AnySchema {
  return v.optional(v.nullable(buildFieldSchema(name, field)));
}

export const registerFields = {
  importDataTemplate: required('importDataTemplate', describe('string', 'Template of the import', { maxLength: 255 })),
  originalFileName: optional('originalFileName', describe('string', 'Original file name', { maxLength: TEXT_MAX })),
  importName: optional('importName', describe('string', 'Name of the import', { maxLength: TEXT_MAX })),
  cloudFileName: optional('cloudFileName', describe('string', 'Name of the file in cloud storage', { maxLength: TEXT_MAX })),
};

export const changeFields = {
  importId: required('importId', describe('guid', 'Identifier of the import')),
  tenant: optional('tenant', describe('string', 'Tenant', { maxLength: 64 })),
  subscription: optional('subscription', describe('string', 'Subscription (organization)', { maxLength: 64 })),
  importDataState: optional('importDataState', describe('enum', 'State', { enum: ImportDataState })),
  cloudFileName: optional('cloudFileName', describe('string', 'Name of the file in cloud storage', { maxLength: TEXT_MAX })),
  detailLog: optional('detailLog', describe('string', 'Detail log', { maxLength: LOG_MAX })),
  error: optional('error', describe('string', 'Error text', { maxLength: LOG_MAX })),
  drillDownOperation: optional('drillDownOperation', describe('string', 'Drill down operation', { maxLength: TEXT_MAX })),
};

/** The body of revertImportFile (the query string may carry `templateKey` instead). */
export const revertFields = {
  templateKey: optional('templateKey', describe('string', 'templateKey', { maxLength: 255 })),
};

/** Fields of ImportDataInfoResource the server sets itself (refused in a registration body). */
const SERVER_FIELDS = ['id', 'key', 'importDataState', 'detailLog', 'error', 'lastProgressUpdateOn', 'drillDownOperation', 'reverted'];

function parseObject(body: unknown, entries: Record<string, AnySchema>, serverFields: readonly string[] = []): Record<string, unknown> {
  if (!isPlainObject(body)) throw validationError([{ path: '', message: message('bodyMustBeObject') }]);
  // Property names bind case-insensitively (`ImportId`, `importdatastate`).
  const bound = bindPropertyNames(body, [...Object.keys(entries), ...serverFields]);
  const errors: FieldError[] = [...bound.errors];
  for (const name of Object.keys(bound.values)) {
    if (Object.hasOwn(entries, name)) continue;
    errors.push({ path: name, message: message(serverFields.includes(name) ? 'serverField' : 'unknownProperty', { field: name }) });
  }
  const result = v.safeParse(v.object(entries), bound.values, { abortEarly: false });
  if (!result.success) errors.push(...issuesToErrors(result.issues));
  if (errors.length > 0 || !result.success) throw validationError(errors);
  return result.output;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

interface RegisterInput {
  readonly importDataTemplate: string;
  readonly originalFileName: string | null;
  readonly importName: string | null;
  readonly cloudFileName: string | null;
}

export function parseRegisterBody(body: unknown): RegisterInput {
  const out = parseObject(body, registerFields, SERVER_FIELDS);
  return {
    importDataTemplate: String(out.importDataTemplate),
    originalFileName: textOrNull(out.originalFileName),
    importName: textOrNull(out.importName),
    cloudFileName: textOrNull(out.cloudFileName),
  };
}

/** An ImportInfoResource: the change (only the properties sent; null clears a text field) and its scope. */
interface ChangeInput {
  readonly tenant: string | null;
  readonly subscription: string | null;
  readonly change: ImportChange;
}

/** A text field of a change: absent stays absent (unchanged), null clears it. */
function textChange(value: unknown): string | null | undefined {
  return value === undefined ? undefined : textOrNull(value);
}

export function parseChangeBody(body: unknown): ChangeInput {
  const out = parseObject(body, changeFields);
  const texts = {
    cloudFileName: textChange(out.cloudFileName),
    detailLog: textChange(out.detailLog),
    error: textChange(out.error),
    drillDownOperation: textChange(out.drillDownOperation),
  };
  const change: ImportChange = {
    importId: String(out.importId),
    ...Object.fromEntries(Object.entries(texts).filter(([, value]) => value !== undefined)),
    ...(isImportState(out.importDataState) ? { importDataState: out.importDataState } : {}),
  };
  return { tenant: textOrNull(out.tenant), subscription: textOrNull(out.subscription), change };
}

/** A required GUID query parameter (validateImportDataState `id`). */
export function parseGuidParam(params: URLSearchParams, name: string): string {
  const result = v.safeParse(required(name, describe('guid', name)), params.get(name) ?? undefined);
  if (!result.success) throw validationError(issuesToErrors(result.issues).map((error) => ({ ...error, path: name })));
  return String(result.output);
}

interface LastImportsQuery {
  readonly templateId: string;
  readonly top: number;
}

/** `top`: a whole number from 1 to LAST_IMPORTS_MAX. */
function parseTop(raw: string): number | undefined {
  const top = parseInteger(raw.trim(), 'none');
  return top !== undefined && top >= 1 && top <= LAST_IMPORTS_MAX ? top : undefined;
}

export function parseLastImportsQuery(params: URLSearchParams): LastImportsQuery {
  const errors: FieldError[] = [];
  const template = v.safeParse(
    required('templateId', describe('string', 'templateId', { maxLength: 255 })),
    params.get('templateId') ?? undefined,
  );
  if (!template.success) errors.push(...issuesToErrors(template.issues).map((error) => ({ ...error, path: 'templateId' })));
  const rawTop = params.get('top') ?? params.get('$top');
  const top = rawTop === null ? LAST_IMPORTS_DEFAULT : parseTop(rawTop);
  if (top === undefined) errors.push({ path: 'top', message: message('integerRange', { field: 'top', min: 1, max: LAST_IMPORTS_MAX }) });
  if (errors.length > 0 || !template.success || top === undefined) throw validationError(errors);
  return { templateId: String(template.output), top };
}

/** `templateKey` of revertImportFile: in the JSON body (`{"templateKey": "..."}`) or the query string. */
export function parseRevertInput(body: unknown, params: URLSearchParams): string {
  const fromBody = body === undefined ? {} : parseObject(body, revertFields);
  const value = typeof fromBody.templateKey === 'string' ? fromBody.templateKey : params.get('templateKey');
  const result = v.safeParse(required('templateKey', describe('string', 'templateKey', { maxLength: 255 })), value ?? undefined);
  if (!result.success) throw validationError(issuesToErrors(result.issues).map((error) => ({ ...error, path: 'templateKey' })));
  return String(result.output);
}
