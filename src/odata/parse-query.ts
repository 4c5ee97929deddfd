/** Parses the OData system query options of a list request into an `ODataQuery`. Pure. */
import { odataError } from './lexer';
import { parseFilter } from './parse-filter';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './types';
import type { ODataField, ODataQuery, OrderTerm } from './types';

const KNOWN_OPTIONS = new Set(['$filter', '$select', '$orderby', '$top', '$skip', '$count', '$inlinecount', '$format']);

export function buildFieldResolver(fields: readonly ODataField[]): (name: string) => ODataField | undefined {
  const byName = new Map(fields.map((field) => [field.name.toLowerCase(), field]));
  return (name) => byName.get(name.toLowerCase());
}

function readInteger(option: string, raw: string, min: number, max?: number): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) throw odataError(option, undefined, `'${raw}' is not a non-negative integer`);
  const value = Number(text);
  if (value < min) throw odataError(option, undefined, `must be at least ${min}`);
  if (max !== undefined && value > max) throw odataError(option, undefined, `must be at most ${max} (got ${value})`);
  return value;
}

function readSingle(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw odataError(name, undefined, 'given more than once');
  return values[0];
}

function splitList(raw: string): { text: string; position: number }[] {
  const parts: { text: string; position: number }[] = [];
  let position = 0;
  for (const piece of raw.split(',')) {
    const leading = piece.length - piece.trimStart().length;
    parts.push({ text: piece.trim(), position: position + leading });
    position += piece.length + 1;
  }
  return parts;
}

function parseSelect(raw: string, resolve: (name: string) => ODataField | undefined): ODataField[] {
  const selected: ODataField[] = [];
  for (const part of splitList(raw)) {
    if (part.text === '') throw odataError('$select', part.position, 'empty property name');
    if (part.text === '*') return [];
    const field = resolve(part.text);
    if (!field) throw odataError('$select', part.position, `unknown property '${part.text}'`);
    if (!selected.includes(field)) selected.push(field);
  }
  return selected;
}

function parseOrderBy(raw: string, resolve: (name: string) => ODataField | undefined): OrderTerm[] {
  const terms: OrderTerm[] = [];
  for (const part of splitList(raw)) {
    const match = /^(\S+)(?:\s+(asc|desc))?$/i.exec(part.text);
    if (!match?.[1]) throw odataError('$orderby', part.position, `expected 'property [asc|desc]', got '${part.text}'`);
    const field = resolve(match[1]);
    if (!field) throw odataError('$orderby', part.position, `unknown property '${match[1]}'`);
    terms.push({ field, descending: match[2]?.toLowerCase() === 'desc' });
  }
  return terms;
}

function parseCount(params: URLSearchParams): boolean {
  const count = readSingle(params, '$count');
  const inline = readSingle(params, '$inlinecount');
  let wanted = false;
  if (count !== undefined) {
    const value = count.trim().toLowerCase();
    if (value !== 'true' && value !== 'false') throw odataError('$count', undefined, "must be 'true' or 'false'");
    wanted = value === 'true';
  }
  if (inline !== undefined) {
    const value = inline.trim().toLowerCase();
    if (value !== 'allpages' && value !== 'none') throw odataError('$inlinecount', undefined, "must be 'allpages' or 'none'");
    wanted = wanted || value === 'allpages';
  }
  return wanted;
}

function parsePaging(params: URLSearchParams): { top: number; skip: number } {
  const top = readSingle(params, '$top');
  const skip = readSingle(params, '$skip');
  const page = readSingle(params, 'page');
  const pageSize = readSingle(params, 'pageSize');
  if ((page !== undefined || pageSize !== undefined) && (top !== undefined || skip !== undefined)) {
    throw odataError(page !== undefined ? 'page' : 'pageSize', undefined, 'page/pageSize cannot be combined with $top/$skip');
  }
  if (page !== undefined || pageSize !== undefined) {
    const size = pageSize === undefined ? DEFAULT_PAGE_SIZE : readInteger('pageSize', pageSize, 1, MAX_PAGE_SIZE);
    const number = page === undefined ? 1 : readInteger('page', page, 1);
    return { top: size, skip: (number - 1) * size };
  }
  return {
    top: top === undefined ? DEFAULT_PAGE_SIZE : readInteger('$top', top, 0, MAX_PAGE_SIZE),
    skip: skip === undefined ? 0 : readInteger('$skip', skip, 0),
  };
}

/** Reads `$filter $select $orderby $top $skip $count $inlinecount page pageSize` against the allowed fields. */
export function parseODataQuery(params: URLSearchParams, fields: readonly ODataField[]): ODataQuery {
  for (const name of new Set(params.keys())) {
    if (name.startsWith('$') && !KNOWN_OPTIONS.has(name.toLowerCase())) {
      throw odataError(name, undefined, `the query option ${name} is not supported`);
    }
  }
  const format = readSingle(params, '$format');
  if (format !== undefined && format.trim().toLowerCase() !== 'json') throw odataError('$format', undefined, "only 'json' is supported");
  const resolve = buildFieldResolver(fields);
  const filterText = readSingle(params, '$filter');
  const selectText = readSingle(params, '$select');
  const orderText = readSingle(params, '$orderby');
  const select = selectText === undefined ? undefined : parseSelect(selectText, resolve);
  return {
    ...(filterText !== undefined && filterText.trim() !== '' ? { filter: parseFilter(filterText, resolve) } : {}),
    ...(select !== undefined && select.length > 0 ? { select } : {}),
    orderBy: orderText === undefined || orderText.trim() === '' ? [] : parseOrderBy(orderText, resolve),
    ...parsePaging(params),
    count: parseCount(params),
  };
}
