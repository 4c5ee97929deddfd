/**
 * The rows of an exchange rates documents file: one per rate line, the document's columns repeated on each line of a
 * document. Consecutive rows of one `number` are one document (a document's rows stay in one chunk); each row's line
 * is checked as a line of the create's body (or of POST .../exchangeRateDocumentRates), the document's columns as the
 * create's body, and every row of a document must repeat its first row's document values.
 */
import type { FieldError } from '../../errors/api-error';
import { tryParse } from '../../resources/entities/import-template';
import type { ImportRowBody, RowRefusal } from '../../resources/entities/import-writer';
import type { CustomValues } from '../../resources/entities/custom-attributes';
import { parseCreateBody } from '../../resources/entities/validate';
import type { CreateInput } from '../../resources/entities/validate';
import { message } from '../../messages/catalogue';
import { exchangeRatesDocumentSpec, LINE_ATTRIBUTES } from './entity';
import { LINES_PROPERTY, MAX_LINES, parseLineBody } from './lines-input';
import type { LineInput } from './lines-input';

/** One line of a document, with its file row number. */
export interface RowLine {
  readonly row: number;
  readonly line: LineInput;
}

/** A document of the file: its number, the values and custom attributes of its first row, and its lines. */
export interface DocumentGroup {
  readonly number: number;
  readonly firstRow: number;
  readonly values: Readonly<Record<string, unknown>>;
  readonly custom: CustomValues;
  readonly lines: RowLine[];
  /** Rows of the group whatever their outcome (a refusal of the document refuses them all). */
  readonly rows: number[];
}

/** A row's body split into the document's properties and the line's (line columns are the line's own field names). */
function splitRow(body: Readonly<Record<string, unknown>>): { document: Record<string, unknown>; line: Record<string, unknown> } {
  const document: Record<string, unknown> = {};
  const line: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (LINE_ATTRIBUTES.includes(name)) line[name] = value;
    else document[name] = value;
  }
  return { document, line };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The document values of a row that differ from its group's first row. */
function compareWithGroup(group: DocumentGroup, input: CreateInput): FieldError[] {
  const names = new Set([...Object.keys(group.values), ...Object.keys(input.values)]);
  const differing = [...names].filter((name) => !sameValue(group.values[name], input.values[name]));
  const custom = new Set([...Object.keys(group.custom), ...Object.keys(input.custom)]);
  differing.push(...[...custom].filter((name) => !sameValue(group.custom[name], input.custom[name])).map((name) => `custom_${name}`));
  return differing.map((field) => ({
    path: field,
    message: message('importGroupDiffers', { field, number: group.number, row: group.firstRow }),
  }));
}

/** A line past the most a document holds, or a pair the document already has in an earlier row: its problem. */
function judgeLine(group: DocumentGroup, line: LineInput): FieldError | undefined {
  if (group.lines.length >= MAX_LINES)
    return { path: LINES_PROPERTY, message: message('tooManyItems', { field: LINES_PROPERTY, max: MAX_LINES }) };
  const first = group.lines.find((item) => item.line.fromCurrency === line.fromCurrency && item.line.toCurrency === line.toCurrency);
  if (!first) return undefined;
  return { path: 'toCurrency', message: message('pairRepeated', { from: line.fromCurrency, to: line.toCurrency, first: first.row }) };
}

/** The rows grouped into documents (consecutive rows of one number); a row that cannot join its document is refused. */
export function groupDocumentRows(rows: readonly ImportRowBody[], refused: RowRefusal[]): DocumentGroup[] {
  const groups: DocumentGroup[] = [];
  for (const { row, body } of rows) {
    const { document, line } = splitRow(body);
    const parsed = tryParse(() => parseCreateBody(exchangeRatesDocumentSpec, document, { isActive: true }));
    const input = parsed.value;
    const errors = [...parsed.errors];
    const parsedLine = parseLineBody(line, '');
    errors.push(...parsedLine.errors);
    if (errors.length > 0 || !input || !parsedLine.line) {
      refused.push({ row, errors });
      continue;
    }
    const number = Number(input.values.number);
    let group = groups.at(-1);
    if (!group || group.number !== number) {
      group = { number, firstRow: row, values: input.values, custom: input.custom, lines: [], rows: [] };
      groups.push(group);
    }
    const problems = [...compareWithGroup(group, input)];
    const problem = judgeLine(group, parsedLine.line);
    if (problem) problems.push(problem);
    if (problems.length > 0) refused.push({ row, errors: problems });
    else {
      group.lines.push({ row, line: parsedLine.line });
      group.rows.push(row);
    }
  }
  return groups.filter((group) => group.lines.length > 0);
}
