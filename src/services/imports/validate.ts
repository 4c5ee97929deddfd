/** Validation of the import operations' inputs (valibot), naming every bad field at once. */
import * as v from 'valibot';
import type { FieldSpec } from '../../entities/spec';
import { isPlainObject } from '../../entities/validate';
import { buildFieldSchema, issuesToErrors } from '../../entities/values';
import type { FieldError } from '../../http/errors';
import { validationError } from '../../http/errors';
import { ImportDataState } from './states';
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
  return v.pipe(
    v.unknown(),
    v.check((value) => value !== undefined && value !== null, `${name} is required`),
    buildFieldSchema(name, { ...field, required: true }),
  ) as AnySchema;
}

function optional(name: string, field: FieldSpec): AnySchema {
  return v.optional(v.nullable(buildFieldSchema(name, field))) as AnySchema;
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

/** Fields of ImportDataInfoResource the server sets itself (refused in a registration body). */
const SERVER_FIELDS = ['id', 'key', 'importDataState', 'detailLog', 'error', 'lastProgressUpdateOn', 'drillDownOperation', 'reverted'];

function parseObject(body: unknown, entries: Record<string, AnySchema>, serverFields: readonly string[] = []): Record<string, unknown> {
  if (!isPlainObject(body)) throw validationError([{ path: '', message: 'The body must be a JSON object.' }]);
  const errors: FieldError[] = [];
  for (const name of Object.keys(body)) {
    if (name in entries) continue;
    const message = serverFields.includes(name)
      ? `'${name}' is not given at registration (set by the server or changeDataImport).`
      : `Unknown property '${name}'.`;
    errors.push({ path: name, message });
  }
  const result = v.safeParse(v.object(entries), body, { abortEarly: false });
  if (!result.success) errors.push(...issuesToErrors(result.issues));
  if (errors.length > 0) throw validationError(errors);
  return result.output as Record<string, unknown>;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export interface RegisterInput {
  readonly importDataTemplate: string;
  readonly originalFileName: string | null;
  readonly importName: string | null;
  readonly cloudFileName: string | null;
}

export function readRegisterBody(body: unknown): RegisterInput {
  const out = parseObject(body, registerFields, SERVER_FIELDS);
  return {
    importDataTemplate: String(out.importDataTemplate),
    originalFileName: textOrNull(out.originalFileName),
    importName: textOrNull(out.importName),
    cloudFileName: textOrNull(out.cloudFileName),
  };
}

/** An ImportInfoResource: the change (only the properties sent; null clears a text field) and its scope. */
export interface ChangeInput {
  readonly tenant: string | null;
  readonly subscription: string | null;
  readonly change: ImportChange;
}

export function readChangeBody(body: unknown): ChangeInput {
  const out = parseObject(body, changeFields);
  const change: Record<string, unknown> = { importId: out.importId };
  for (const name of ['cloudFileName', 'detailLog', 'error', 'drillDownOperation']) {
    if (out[name] !== undefined) change[name] = out[name];
  }
  if (out.importDataState !== undefined && out.importDataState !== null) change.importDataState = out.importDataState;
  return { tenant: textOrNull(out.tenant), subscription: textOrNull(out.subscription), change: change as unknown as ImportChange };
}

/** A required GUID query parameter (validateImportDataState `id`). */
export function readGuidParam(params: URLSearchParams, name: string): string {
  const result = v.safeParse(required(name, describe('guid', name)), params.get(name) ?? undefined);
  if (!result.success) throw validationError(issuesToErrors(result.issues).map((error) => ({ ...error, path: name })));
  return String(result.output);
}

export interface LastImportsQuery {
  readonly templateId: string;
  readonly top: number;
}

const topSchema = v.pipe(
  v.string(),
  v.regex(/^\d+$/, `top must be an integer from 1 to ${LAST_IMPORTS_MAX}`),
  v.transform(Number),
  v.minValue(1, `top must be an integer from 1 to ${LAST_IMPORTS_MAX}`),
  v.maxValue(LAST_IMPORTS_MAX, `top must be an integer from 1 to ${LAST_IMPORTS_MAX}`),
);

export function readLastImportsQuery(params: URLSearchParams): LastImportsQuery {
  const errors: FieldError[] = [];
  const template = v.safeParse(
    required('templateId', describe('string', 'templateId', { maxLength: 255 })),
    params.get('templateId') ?? undefined,
  );
  if (!template.success) errors.push(...issuesToErrors(template.issues).map((error) => ({ ...error, path: 'templateId' })));
  const rawTop = params.get('top') ?? params.get('$top');
  const top = rawTop === null ? undefined : v.safeParse(topSchema, rawTop.trim());
  if (top && !top.success) errors.push(...issuesToErrors(top.issues).map((error) => ({ ...error, path: 'top' })));
  if (errors.length > 0 || !template.success) throw validationError(errors);
  return { templateId: String(template.output), top: top?.success ? top.output : LAST_IMPORTS_DEFAULT };
}

/** `templateKey` of revertImportFile: in the JSON body (`{"templateKey": "..."}`) or the query string. */
export function readRevertInput(body: unknown, params: URLSearchParams): string {
  const fromBody =
    body === undefined
      ? {}
      : parseObject(body, { templateKey: optional('templateKey', describe('string', 'templateKey', { maxLength: 255 })) });
  const value = typeof fromBody.templateKey === 'string' ? fromBody.templateKey : params.get('templateKey');
  const result = v.safeParse(required('templateKey', describe('string', 'templateKey', { maxLength: 255 })), value ?? undefined);
  if (!result.success) throw validationError(issuesToErrors(result.issues).map((error) => ({ ...error, path: 'templateKey' })));
  return String(result.output);
}
