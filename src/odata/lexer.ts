/** Tokenizer for `$filter` expressions. Pure. */
import { ApiError } from '../errors/api-error';
import { message } from '../messages/catalogue';

type TokenType = 'identifier' | 'string' | 'number' | 'guid' | 'datetime' | 'lparen' | 'rparen' | 'comma' | 'end';

export interface Token {
  readonly type: TokenType;
  readonly text: string;
  /** 0-based offset in the expression. */
  readonly position: number;
}

export function odataError(option: string, position: number | undefined, reason: string): ApiError {
  const where = position === undefined ? '' : ` at position ${position + 1}`;
  return new ApiError('InvalidODataQuery', `${option}${where}: ${reason}`, {
    errors: [
      {
        path: option,
        message: position === undefined ? message('odataFault', { reason }) : message('odataFaultAt', { reason, position: position + 1 }),
      },
    ],
  });
}

const GUID_AT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])/;
const DATETIME_AT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?(?![\w:.-])/;
const NUMBER_AT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?[mMdDlLfF]?(?![\w.])/;
const IDENTIFIER_AT = /^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*/;

function readQuoted(input: string, start: number, option: string): { value: string; end: number } {
  let value = '';
  let index = start + 1;
  while (index < input.length) {
    const char = input[index];
    if (char === "'") {
      if (input[index + 1] === "'") {
        value += "'";
        index += 2;
        continue;
      }
      return { value, end: index + 1 };
    }
    value += char;
    index += 1;
  }
  throw odataError(option, start, 'unterminated string literal');
}

export function tokenize(input: string, option = '$filter'): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < input.length) {
    const char = input[index] ?? '';
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    const rest = input.slice(index);
    if (char === '(' || char === ')' || char === ',') {
      tokens.push({ type: char === '(' ? 'lparen' : char === ')' ? 'rparen' : 'comma', text: char, position: index });
      index += 1;
      continue;
    }
    if (char === "'") {
      const { value, end } = readQuoted(input, index, option);
      tokens.push({ type: 'string', text: value, position: index });
      index = end;
      continue;
    }
    const prefixed = /^(datetime|datetimeoffset|guid)'/i.exec(rest);
    if (prefixed?.[1]) {
      const kind = prefixed[1].toLowerCase();
      const { value, end } = readQuoted(input, index + prefixed[1].length, option);
      tokens.push({ type: kind === 'guid' ? 'guid' : 'datetime', text: value, position: index });
      index = end;
      continue;
    }
    const guid = GUID_AT.exec(rest);
    if (guid) {
      tokens.push({ type: 'guid', text: guid[0], position: index });
      index += guid[0].length;
      continue;
    }
    const date = DATETIME_AT.exec(rest);
    if (date) {
      tokens.push({ type: 'datetime', text: date[0], position: index });
      index += date[0].length;
      continue;
    }
    const number = NUMBER_AT.exec(rest);
    if (number) {
      tokens.push({ type: 'number', text: number[0].replace(/[mMdDlLfF]$/, ''), position: index });
      index += number[0].length;
      continue;
    }
    const identifier = IDENTIFIER_AT.exec(rest);
    if (identifier) {
      tokens.push({ type: 'identifier', text: identifier[0], position: index });
      index += identifier[0].length;
      continue;
    }
    throw odataError(option, index, `unexpected character '${char}'`);
  }
  tokens.push({ type: 'end', text: '', position: input.length });
  return tokens;
}
