/**
 * The failed rows of an import as CSV (GET /{id}/failures, to come): one line per problem, `row`, `column`, `message`
 * (in the caller's language), then the row's values under the file's own column names. RFC 4180 quoting; a cell that a
 * spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return, also right after a
 * `;`, where a `;` locale's spreadsheet starts a cell) gets a `'` before it (OWASP's CSV injection advice), so opening
 * the file runs nothing, in `,` and `;` locales alike.
 */
import type { FieldError } from '../../../errors/api-error';
import { formatMessage } from '../../../messages/catalogue';
import type { Language } from '../../../messages/language';

export interface FailedRow {
  readonly row: number;
  readonly errors: readonly FieldError[];
  /** The row's values by column as written in the file. */
  readonly values: Readonly<Record<string, unknown>>;
}

const FORMULA_START = /^[=+\-@\t\r]/;
/** A formula start right after a `;`: where a `;` locale's spreadsheet starts a new cell, whatever the quotes. */
const FORMULA_AFTER_SEMICOLON = /;(?=[=+\-@\t\r])/g;

/**
 * One cell: text (JSON for values that are not text), formula-escaped (at its start, and after every `;`, where a
 * spreadsheet of a `;` locale splits the line), quoted when it holds `,`, `;`, `"` or a line break.
 */
export function encodeCell(value: unknown): string {
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const safe = (FORMULA_START.test(text) ? `'${text}` : text).replace(FORMULA_AFTER_SEMICOLON, ";'");
  return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function encodeLine(cells: readonly unknown[]): string {
  return `${cells.map(encodeCell).join(',')}\r\n`;
}

/** The header line: `row,column,message` and the file's columns. */
export function encodeFailuresHeader(columns: readonly string[]): string {
  return encodeLine(['row', 'column', 'message', ...columns]);
}

/** The lines of one failed row: one per problem, each with the row's values. */
export function encodeFailedRow(failed: FailedRow, columns: readonly string[], language: Language): string {
  const values = columns.map((column) => failed.values[column]);
  return failed.errors.map((error) => encodeLine([failed.row, error.path, formatMessage(error.message, language), ...values])).join('');
}
