/** The inputs of a file upload: the query options, the file name of Content-Disposition, and the template. */
import { validationError } from '../../../errors/api-error';
import type { FieldError } from '../../../errors/api-error';
import type { ImportTemplate } from '../../../resources/entities/import-template';
import { message } from '../../../messages/catalogue';

type ImportMode = 'create' | 'upsert';

interface UploadOptions {
  readonly template: ImportTemplate;
  readonly mode: ImportMode;
  readonly dryRun: boolean;
  readonly failOnErrors: boolean;
}

function parseFlag(params: URLSearchParams, name: string, errors: FieldError[]): boolean {
  const raw = params.get(name);
  if (raw === null) return false;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  errors.push({ path: name, message: message('mustBeBoolean', { field: name }) });
  return false;
}

/** `importDataTemplate` (required, one of the templates, any case), `mode` (create | upsert), `dryRun`, `failOnErrors`. */
export function parseUploadOptions(params: URLSearchParams, templates: readonly ImportTemplate[]): UploadOptions {
  const errors: FieldError[] = [];
  const raw = params.get('importDataTemplate');
  const choices = templates.map((template) => template.name).join(', ');
  const template = raw === null ? undefined : templates.find((candidate) => candidate.name.toLowerCase() === raw.trim().toLowerCase());
  if (raw === null || raw.trim() === '')
    errors.push({ path: 'importDataTemplate', message: message('required', { field: 'importDataTemplate' }) });
  else if (!template) {
    errors.push({
      path: 'importDataTemplate',
      message: message('importUnknownTemplate', { field: 'importDataTemplate', value: raw.slice(0, 100), choices }),
    });
  }
  const rawMode = (params.get('mode') ?? 'create').trim().toLowerCase();
  if (rawMode !== 'create' && rawMode !== 'upsert')
    errors.push({ path: 'mode', message: message('mustBeOneOf', { field: 'mode', choices: 'create, upsert' }) });
  const dryRun = parseFlag(params, 'dryRun', errors);
  const failOnErrors = parseFlag(params, 'failOnErrors', errors);
  if (errors.length > 0 || !template) throw validationError(errors);
  return { template, mode: rawMode === 'upsert' ? 'upsert' : 'create', dryRun, failOnErrors };
}

/**
 * The file name of a Content-Disposition header (RFC 6266): `filename*=UTF-8''<percent-encoded>` first, else
 * `filename="..."` or a bare token; the name only (no directories), at most 255 characters. Null when there is none.
 */
export function parseFileName(header: string | null): string | null {
  if (header === null) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;\s]+)/.exec(header)?.[1];
  let name: string | undefined;
  if (extended !== undefined) {
    try {
      name = decodeURIComponent(extended);
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) {
    const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header)?.[1];
    name = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : /filename\s*=\s*([^;\s"]+)/.exec(header)?.[1];
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base.slice(0, 255) : null;
}
