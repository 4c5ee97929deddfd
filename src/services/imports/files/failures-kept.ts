/**
 * What the chunk ledger keeps of a chunk's failed rows (import_chunks.failures, read back by GET /{id}/failures),
 * bounded so that a ledger row always fits one D1 value: each value at most MAX_KEPT_VALUE_CHARS characters (longer
 * ones cut, ending in `…`), the whole list at most MAX_KEPT_FAILURES_CHARS characters of JSON. A row that does not fit
 * whole is kept with its first problem only; past the bound, one last entry says how many failed rows are not listed.
 * The counts (rowsFailed) are never cut.
 */
import { message } from '../../../messages/catalogue';
import type { FieldError } from '../../../errors/api-error';
import type { FailedRow } from './failures-csv';

/** Characters of JSON a chunk's failures keep (at most 3 bytes each in UTF-8: well within D1's 2,000,000 bytes). */
export const MAX_KEPT_FAILURES_CHARS = 256 * 1024;
/** Characters kept of one value of a failed row. */
export const MAX_KEPT_VALUE_CHARS = 1000;
/** Room kept for the closing entry. */
const CLOSING_CHARS = 1024;

function cutValue(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return cutText(value);
  const text = JSON.stringify(value);
  return text.length > MAX_KEPT_VALUE_CHARS ? cutText(text) : value;
}

function cutText(text: string): string {
  return text.length > MAX_KEPT_VALUE_CHARS ? `${text.slice(0, MAX_KEPT_VALUE_CHARS)}…` : text;
}

/** A problem as kept: its path and text parameters cut (a parameter may quote a value). */
function cutError(error: FieldError): FieldError {
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(error.message.params)) params[name] = typeof value === 'string' ? cutText(value) : value;
  return { path: cutText(error.path), message: { key: error.message.key, params } };
}

function cutRow(failed: FailedRow): FailedRow {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(failed.values)) values[cutText(name)] = cutValue(value);
  return { row: failed.row, errors: failed.errors.map(cutError), values };
}

/** The failures of a chunk as the ledger stores them (JSON text of a FailedRow[]). */
export function encodeKeptFailures(failures: readonly FailedRow[]): string {
  const kept: string[] = [];
  let chars = 2;
  for (const [index, failed] of failures.entries()) {
    const room = MAX_KEPT_FAILURES_CHARS - CLOSING_CHARS - chars;
    const whole = JSON.stringify(cutRow(failed));
    const first =
      whole.length < room ? whole : JSON.stringify({ row: failed.row, errors: failed.errors.slice(0, 1).map(cutError), values: {} });
    if (first.length >= room) {
      const count = failures.length - index;
      const problem = message('importFailuresCut', { count, max: MAX_KEPT_FAILURES_CHARS });
      kept.push(JSON.stringify({ row: failed.row, errors: [{ path: '', message: problem }], values: {} }));
      break;
    }
    kept.push(first);
    chars += first.length + 1;
  }
  return `[${kept.join(',')}]`;
}
