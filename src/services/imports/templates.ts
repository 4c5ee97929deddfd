/** The import templates: the services' own (from the registry) and one per reference kind that takes writes. */
import { collectFieldErrors } from '../../resources/entities/import-template';
import type { CellKind, ImportTemplate } from '../../resources/entities/import-template';
import { REFERENCE_KINDS } from '../../resources/reference/kinds';
import type { FieldKind } from '../../model/fields';
import { parseReferenceRecords } from '../../resources/reference/validate';
import type { ReferenceRules } from '../../resources/reference/routes';
import { buildReferenceWriter } from './reference-writer';

const CELLS: Readonly<Record<FieldKind, CellKind>> = {
  string: 'text',
  choice: 'text',
  int: 'integer',
  bool: 'boolean',
  stringList: 'list',
  decimal: 'text',
  datetime: 'text',
  guid: 'text',
  enum: 'integer',
};

/**
 * A reference kind's template: `key` and its fields (standard lists, read-only, have none); rows are written as
 * PUT /referenceData/{kind} writes them, under the same rules (src/services/imports/reference-writer.ts).
 */
function deriveReferenceTemplates(rules: () => ReferenceRules): ImportTemplate[] {
  return REFERENCE_KINDS.filter((kind) => kind.storage !== 'standard').map((kind) => ({
    name: kind.name,
    columns: [
      { name: 'key', required: true },
      ...Object.entries(kind.fields).map(([name, field]) => ({ name, required: field.required === true, cell: CELLS[field.kind] })),
    ],
    customAttributes: false,
    // As PUT /referenceData/{kind} checks each record (`[0].name` -> `name`).
    check: (body) =>
      collectFieldErrors(() => parseReferenceRecords(kind, [body])).map((error) => ({
        ...error,
        path: error.path.replace(/^\[0\]\.?/, ''),
      })),
    writer: buildReferenceWriter(kind, rules),
  }));
}

export function collectImportTemplates(services: readonly ImportTemplate[], rules: () => ReferenceRules): readonly ImportTemplate[] {
  return [...services, ...deriveReferenceTemplates(rules)];
}
