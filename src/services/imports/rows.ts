/**
 * One file record -> the body the template's API operation takes, checked by that operation's own validation. Text
 * cells (CSV, xlsx) become values by their column's cell kind; an empty cell is an absent property; JSON items keep
 * their values. Property names bind to the template's columns case-insensitively, as the API binds body properties.
 */
import type { FieldError } from '../../errors/api-error';
import { LIST_SEPARATOR } from '../../resources/entities/import-template';
import type { CellKind, ImportTemplate } from '../../resources/entities/import-template';
import { parsePrefixedCustomName } from '../../resources/entities/custom-attributes';
import { message } from '../../messages/catalogue';
import type { FileRecord } from './files/format';

interface CheckedRow {
  /** The row number of the file (the header row of CSV and xlsx is 1; JSON items count from 1). */
  readonly row: number;
  readonly body: Readonly<Record<string, unknown>>;
  /** Every problem of the row, by column (`[]`: the row passes the API's validation). */
  readonly errors: readonly FieldError[];
}

/** A custom attribute's text cell: a JSON number, `true`/`false` or an object as that value; anything else the text. */
function readCustomCell(text: string): unknown {
  const trimmed = text.trim();
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed) || trimmed === 'true' || trimmed === 'false' || trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** A text cell as the value of a column of kind `cell`; a value the kind cannot read stays text, for the API's own message. */
function readCell(cell: CellKind, text: string): unknown {
  switch (cell) {
    case 'text':
      return text;
    case 'integer':
      return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : text;
    case 'boolean': {
      const lower = text.trim().toLowerCase();
      return lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : text;
    }
    case 'list':
      return text
        .split(LIST_SEPARATOR)
        .map((item) => item.trim())
        .filter((item) => item !== '');
  }
}

/** The template's columns by lower-case name, built once per template. */
const lookups = new WeakMap<ImportTemplate, ReadonlyMap<string, { readonly name: string; readonly cell: CellKind }>>();

function lookupOf(template: ImportTemplate) {
  let lookup = lookups.get(template);
  if (!lookup) {
    lookup = new Map(template.columns.map((column) => [column.name.toLowerCase(), { name: column.name, cell: column.cell ?? 'text' }]));
    lookups.set(template, lookup);
  }
  return lookup;
}

/**
 * Maps and checks one record. `fromText`: the values are text cells (CSV, xlsx). Unknown properties (possible in JSON
 * items after the first) are errors of the row.
 */
export function checkRecord(template: ImportTemplate, record: FileRecord, fromText: boolean): CheckedRow {
  const lookup = lookupOf(template);
  const body: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [written, value] of Object.entries(record.values)) {
    const column = lookup.get(written.trim().toLowerCase());
    const custom = column === undefined && template.customAttributes ? parsePrefixedCustomName(written.trim()) : undefined;
    if (column === undefined && custom === undefined) {
      const choices = template.columns.map((item) => item.name).join(', ');
      errors.push({ path: written, message: message('importUnknownColumn', { field: written, template: template.name, choices }) });
      continue;
    }
    if (fromText && value === '') continue;
    const name = column?.name ?? `custom_${custom ?? ''}`;
    if (!fromText || typeof value !== 'string') body[name] = value;
    else body[name] = column ? readCell(column.cell, value) : readCustomCell(value);
  }
  return { row: record.row, body, errors: [...errors, ...template.check(body)] };
}
