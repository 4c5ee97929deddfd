/**
 * Import templates: what a file import of one kind of record takes (POST /corePatterns/importDataInfos/files). The
 * columns are the API's own field names (matched case-insensitively), plus `custom_<name>` where the records take custom
 * attributes. Services describe their templates here; the imports service reads them through the registry.
 */
import type { SQL } from 'drizzle-orm';
import type { TenantScope } from '../../db/client';
import type { TenantReader } from '../../tenant/session';
import type { WriteStatement } from '../../db/writes';
import { ApiError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import { parsePrefixedCustomName } from './custom-attributes';
import type { ReferenceRecord } from '../reference/spec';
import type { FoundReferences } from '../reference/store';
import type { ImportWriter } from './import-writer';
import type { EntitySpec } from './spec';
import type { EntityStore } from './store';
import { parseCreateBody } from './validate';
import type { CreateBodyOptions } from './validate';

/**
 * How a text cell (CSV, xlsx) becomes the value the API operation takes: `text` as written (the operation's own schema
 * reads numbers, decimals, dates and enum names from text), `integer` and `boolean` as JSON values, `list` as an array of
 * the `|`-separated items. JSON files carry their values as they are.
 */
export type CellKind = 'text' | 'integer' | 'boolean' | 'list';

/** The separator of a `list` cell (`L1|L2`). */
export const LIST_SEPARATOR = '|';

interface ImportColumn {
  readonly name: string;
  readonly required: boolean;
  /** Default `text`. */
  readonly cell?: CellKind;
}

/** One row's body checked as the matching API operation checks it: every problem, by the body's property path. */
type RowCheck = (body: Readonly<Record<string, unknown>>) => readonly FieldError[];

/** A member row: the record that holds it and the member's key. */
export type MemberPair = readonly [ownerId: string, memberKey: string];

/**
 * A column of `|`-separated keys of members the row's record holds in a table of its own (routes: `locations`,
 * `equipmentItems`, `tools`). The service says how its keys are checked (as its API checks them) and written.
 */
export interface ImportMemberColumn {
  readonly column: string;
  /** The members' reference kind: each key must name one of its records. */
  readonly kind: string;
  /** A key that names no record of the kind (the API's message), or a record the row's record cannot hold. */
  checkMember(key: string, member: ReferenceRecord | undefined, row: Readonly<Record<string, unknown>>): FieldError | undefined;
  /** Member rows, added (a member already held is left alone); only while `onlyIf` holds, when given. */
  insert(scope: TenantScope, pairs: readonly MemberPair[], onlyIf?: SQL): WriteStatement;
  /** Member rows, removed (revert); only while `onlyIf` holds. */
  remove(scope: TenantScope, pairs: readonly MemberPair[], onlyIf: SQL): WriteStatement;
  /** The members the records hold. */
  list(tenant: TenantReader, ownerIds: readonly string[]): Promise<MemberPair[]>;
}

export interface ImportTemplate {
  /** The `importDataTemplate` value (`routes`). */
  readonly name: string;
  readonly columns: readonly ImportColumn[];
  /** `custom_<name>` columns are accepted. */
  readonly customAttributes: boolean;
  /** The API operation's own validation of one row's body (field rules, messages). */
  readonly check: RowCheck;
  /**
   * The entity whose create the rows are (src/services/imports/process-steps.ts writes them as that create would). With
   * neither `store` nor `writer` the file is checked at upload, but not processed (the import ends Fatal, saying so).
   */
  readonly store?: EntityStore;
  /** A processing of the service's own, for records that are not plain entity creates (src/resources/entities/import-writer.ts). */
  readonly writer?: ImportWriter;
  /** Columns of member keys (not part of the create body): written to the record's member tables. */
  readonly members?: readonly ImportMemberColumn[];
  /**
   * The create's own rules on referenced records (routes: the brand model is of the brand), judged on the records the
   * chunk's reference check read, with the create's messages.
   */
  readonly checkFound?: (values: Readonly<Record<string, unknown>>, found: FoundReferences) => readonly FieldError[];
}

/** A parse that throws ApiError (ValidationFailed): its value, or its field errors; other errors go on. */
export function tryParse<T>(parse: () => T): { readonly value?: T; readonly errors: readonly FieldError[] } {
  try {
    return { value: parse(), errors: [] };
  } catch (error) {
    if (error instanceof ApiError && error.errors.length > 0) return { errors: error.errors };
    throw error;
  }
}

/** The field errors of a validation that throws ApiError (ValidationFailed); other errors go on. */
export function collectFieldErrors(validate: () => unknown): readonly FieldError[] {
  return tryParse(validate).errors;
}

/** The create body's validation of an entity (parseCreateBody, as its POST runs it, `isActive` included). */
export function checkEntityCreate(spec: EntitySpec, options: CreateBodyOptions = {}): RowCheck {
  return (body) => collectFieldErrors(() => parseCreateBody(spec, body, { ...options, isActive: true }));
}

/**
 * An entity's template: its fields (required as on create; booleans as `boolean` cells), `isActive`, and `extra` columns
 * of its own; rows are checked by `check` (default: the create body's validation).
 */
export function deriveEntityTemplate(
  spec: EntitySpec,
  options: {
    readonly extra?: readonly ImportColumn[];
    readonly check?: RowCheck;
    readonly name?: string;
    /**
     * The entity whose creates the rows are: processing writes them (with `members`), when its rows are plain creates
     * (no extra columns, the default check) or the template's members are given.
     */
    readonly store?: EntityStore;
    readonly members?: readonly ImportMemberColumn[];
    readonly checkFound?: ImportTemplate['checkFound'];
  } = {},
): ImportTemplate {
  const fields = Object.entries(spec.fields).map(([field, described]) => ({
    name: field,
    required: described.required === true,
    ...(described.kind === 'bool' ? { cell: 'boolean' as const } : {}),
  }));
  return {
    name: options.name ?? spec.name,
    columns: [...fields, { name: 'isActive', required: false, cell: 'boolean' }, ...(options.extra ?? [])],
    customAttributes: spec.customAttributes,
    check: options.check ?? checkEntityCreate(spec),
    ...(options.store && ((!options.extra && !options.check) || options.members) ? { store: options.store } : {}),
    ...(options.members ? { members: options.members } : {}),
    ...(options.checkFound ? { checkFound: options.checkFound } : {}),
  };
}

/** A header row bound to a template: each column's canonical name (`custom_<name>` as written), in file order. */
interface BoundHeader {
  readonly names: readonly string[];
}

/**
 * Binds a header row to the template: every name must be a column (case-insensitive) or, where allowed, a valid
 * `custom_<name>`; none twice; every required column present. Answers every problem at once.
 */
export function bindHeader(template: ImportTemplate, header: readonly string[]): { header: BoundHeader; errors: FieldError[] } {
  const byLower = new Map(template.columns.map((column) => [column.name.toLowerCase(), column.name]));
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const choices = template.columns.map((column) => column.name).join(', ') + (template.customAttributes ? ', custom_<name>' : '');
  const names = header.map((raw, index) => {
    const written = raw.trim();
    if (written === '') {
      errors.push({ path: `header[${index + 1}]`, message: message('importEmptyColumn', { column: index + 1 }) });
      return '';
    }
    const custom = template.customAttributes ? parsePrefixedCustomName(written) : undefined;
    const name = byLower.get(written.toLowerCase()) ?? (custom === undefined ? undefined : `custom_${custom}`);
    if (name === undefined) {
      errors.push({ path: written, message: message('importUnknownColumn', { field: written, template: template.name, choices }) });
      return '';
    }
    if (seen.has(name.toLowerCase())) errors.push({ path: written, message: message('importRepeatedColumn', { field: written }) });
    seen.add(name.toLowerCase());
    return name;
  });
  for (const column of template.columns) {
    if (column.required && !seen.has(column.name.toLowerCase())) {
      errors.push({ path: column.name, message: message('importMissingColumn', { field: column.name, template: template.name }) });
    }
  }
  return { header: { names }, errors };
}
