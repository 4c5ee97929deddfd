/** Parses the OData system query options of a list request into an `ODataQuery`. Pure. */
import { parseInteger } from '../validation/values';
import { odataError } from './lexer';
import { parseFilter } from './parse-filter';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MAX_SKIP } from './types';
import type { ODataField, ODataQuery, OrderTerm } from './types';

/** Query options the engine reads; names are matched case-insensitively (`$Filter`, `pagesize`). */
const QUERY_OPTIONS = [
  '$filter',
  '$select',
  '$orderby',
  '$top',
  '$skip',
  '$count',
  '$inlinecount',
  '$format',
  '$skiptoken',
  'page',
  'pagesize',
] as const;

type OptionName = (typeof QUERY_OPTIONS)[number];

const toOptionName = (name: string): OptionName | undefined => QUERY_OPTIONS.find((option) => option === name);

/** Canonical spelling of each option in error paths and links. */
const DISPLAY: Readonly<Record<OptionName, string>> = {
  $filter: '$filter',
  $select: '$select',
  $orderby: '$orderby',
  $top: '$top',
  $skip: '$skip',
  $count: '$count',
  $inlinecount: '$inlinecount',
  $format: '$format',
  $skiptoken: '$skiptoken',
  page: 'page',
  pagesize: 'pageSize',
};

type ODataOptions = Partial<Record<OptionName, string>>;

/**
 * Collects the known options; any other `$` option is refused, and so is an option given twice
 * (in any spelling). Other parameters are ignored.
 */
function parseODataOptions(params: URLSearchParams): ODataOptions {
  const options: ODataOptions = {};
  for (const [rawName, value] of params) {
    const option = toOptionName(rawName.toLowerCase());
    if (option === undefined) {
      if (rawName.startsWith('$')) throw odataError(rawName, undefined, `the query option ${rawName} is not supported`);
      continue;
    }
    if (options[option] !== undefined) throw odataError(DISPLAY[option], undefined, 'given more than once');
    options[option] = value;
  }
  return options;
}

export function buildFieldResolver(fields: readonly ODataField[]): (name: string) => ODataField | undefined {
  const byName = new Map(fields.map((field) => [field.name.toLowerCase(), field]));
  return (name) => byName.get(name.toLowerCase());
}

function parseOptionInteger(option: OptionName, raw: string, min: number, max: number): number {
  const text = raw.trim();
  const value = parseInteger(text, 'none');
  if (value === undefined) throw odataError(DISPLAY[option], undefined, `'${raw}' is not a whole number of ${min} or more`);
  if (value < min) throw odataError(DISPLAY[option], undefined, `must be at least ${min} (got ${value})`);
  if (value > max) throw odataError(DISPLAY[option], undefined, `must be at most ${max} (got ${text})`);
  return value;
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

type Resolver = (name: string) => ODataField | undefined;

function parseSelect(raw: string, resolve: Resolver): ODataField[] {
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

/**
 * Any number of `property [asc|desc]` keys over the list's properties, in any directions (an order no index serves is
 * sorted: `buildListQueries`).
 */
function parseOrderBy(raw: string, resolve: Resolver): OrderTerm[] {
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

function parseCount(options: ODataOptions): boolean {
  let wanted = false;
  if (options.$count !== undefined) {
    const value = options.$count.trim().toLowerCase();
    if (value !== 'true' && value !== 'false') throw odataError('$count', undefined, `must be 'true' or 'false' (got '${options.$count}')`);
    wanted = value === 'true';
  }
  if (options.$inlinecount !== undefined) {
    const value = options.$inlinecount.trim().toLowerCase();
    if (value !== 'allpages' && value !== 'none')
      throw odataError('$inlinecount', undefined, `must be 'allpages' or 'none' (got '${options.$inlinecount}')`);
    wanted = wanted || value === 'allpages';
  }
  return wanted;
}

function parsePaging(options: ODataOptions): { top: number; skip: number } {
  const { $top: top, $skip: skip, page, pagesize: pageSize, $skiptoken: skipToken } = options;
  if ((page !== undefined || pageSize !== undefined) && (top !== undefined || skip !== undefined)) {
    throw odataError(page !== undefined ? 'page' : 'pageSize', undefined, 'page/pageSize cannot be combined with $top/$skip');
  }
  if (parseOptionText(skipToken) !== undefined && (skip !== undefined || page !== undefined)) {
    throw odataError('$skiptoken', undefined, `cannot be combined with ${skip !== undefined ? '$skip' : 'page'}`);
  }
  if (page !== undefined || pageSize !== undefined) {
    const size = pageSize === undefined ? DEFAULT_PAGE_SIZE : parseOptionInteger('pagesize', pageSize, 1, MAX_PAGE_SIZE);
    const number = page === undefined ? 1 : parseOptionInteger('page', page, 1, Math.floor(MAX_SKIP / size) + 1);
    return { top: size, skip: (number - 1) * size };
  }
  return {
    top: top === undefined ? DEFAULT_PAGE_SIZE : parseOptionInteger('$top', top, 0, MAX_PAGE_SIZE),
    skip: skip === undefined ? 0 : parseOptionInteger('$skip', skip, 0, MAX_SKIP),
  };
}

/** The option's text, or undefined when absent or blank (a blank option is the same as none). */
function parseOptionText(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

/**
 * Reads `$filter $select $orderby $top $skip $skiptoken $count $inlinecount $format page pageSize` against the allowed
 * fields.
 */
export function parseODataQuery(params: URLSearchParams, fields: readonly ODataField[]): ODataQuery {
  const options = parseODataOptions(params);
  const format = options.$format?.trim().toLowerCase();
  if (format !== undefined && format !== 'json' && format !== 'application/json') {
    throw odataError('$format', undefined, "only 'json' is supported");
  }
  const resolve = buildFieldResolver(fields);
  const filterText = parseOptionText(options.$filter);
  const selectText = parseOptionText(options.$select);
  const orderText = parseOptionText(options.$orderby);
  const select = selectText === undefined ? [] : parseSelect(selectText, resolve);
  const skipToken = parseOptionText(options.$skiptoken);
  return {
    ...(filterText === undefined ? {} : { filter: parseFilter(filterText, resolve) }),
    ...(select.length > 0 ? { select } : {}),
    orderBy: orderText === undefined ? [] : parseOrderBy(orderText, resolve),
    ...parsePaging(options),
    count: parseCount(options),
    ...(skipToken === undefined ? {} : { skipToken: skipToken.trim() }),
  };
}
