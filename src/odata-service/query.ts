/**
 * The query options of the standard root, translated to today's OData lists (pure): `$filter`, `$orderby`, `$skip`,
 * `$skiptoken` and `$count` go to today's engine as sent (it refuses what it does not serve, with today's messages);
 * `$top` is the total the client wants, served in pages of the server's size (`Prefer: odata.maxpagesize`, at most
 * today's 1000; 100 by default); `$select` and `$expand` are applied to the records today's lists answer.
 */
import { odataError } from '../odata/lexer';
import type { EdmEntityType } from './model';
import type { Projection } from './shape';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;
const CUSTOM_PREFIX = 'custom_';
/** Options the standard root reads itself; every other `$` option goes to today's engine. */
const OWN_OPTIONS = new Set(['$select', '$expand', '$top', '$format']);
const WHOLE = /^\d{1,15}$/;

/** Query options by lower-cased name (option names are case-insensitive, as today's lists take them). */
function readOption(params: URLSearchParams, name: string): string | undefined {
  for (const [key, value] of params) if (key.toLowerCase() === name) return value;
  return undefined;
}

function splitList(option: string, text: string): { name: string; at: number }[] {
  const items: { name: string; at: number }[] = [];
  let at = 0;
  for (const part of text.split(',')) {
    const name = part.trim();
    if (name === '') throw odataError(option, at, 'expected a property name');
    items.push({ name, at: at + part.indexOf(name) });
    at += part.length + 1;
  }
  return items;
}

/** `$select` and `$expand` of a read of `type`: names it has (dynamic `custom_<name>` when it is open), `*`. */
export function parseProjection(params: URLSearchParams, type: EdmEntityType, types: readonly EdmEntityType[] = []): Projection {
  const selectText = readOption(params, '$select')?.trim();
  const expandText = readOption(params, '$expand')?.trim();
  const properties = new Set(type.properties.map((property) => property.name));
  const navigations = type.navigations.map((navigation) => navigation.name);
  const select = selectText
    ? splitList('$select', selectText).map(({ name, at }) => {
        if (name === '*' || properties.has(name) || (type.openType && name.startsWith(CUSTOM_PREFIX))) return name;
        throw odataError('$select', at, `unknown property '${name}'`);
      })
    : undefined;
  const nested: Record<string, readonly string[]> = {};
  const expand = expandText
    ? splitExpand(expandText).flatMap(({ name, options, at }) => {
        if (name === '*' && options === undefined) return navigations;
        if (!navigations.includes(name)) {
          throw odataError('$expand', at, `unknown navigation property '${name}'; expandable: ${navigations.join(', ') || 'none'}`);
        }
        if (options !== undefined) {
          const target = types.find((candidate) => candidate.name === type.navigations.find((nav) => nav.name === name)?.type);
          nested[name] = parseNestedSelect(options, at + name.length + 1, target);
        }
        return [name];
      })
    : [];
  return { ...(select ? { select } : {}), expand: [...new Set(expand)], ...(Object.keys(nested).length > 0 ? { nested } : {}) };
}

/** `a,b(opts),c`: the items of `$expand`, split at the commas outside parentheses; each with its options text, if any. */
function splitExpand(text: string): { name: string; options?: string; at: number }[] {
  const items: { name: string; options?: string; at: number }[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index <= text.length; index += 1) {
    const char = text[index];
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (depth < 0) throw odataError('$expand', index, 'a closing parenthesis without its opening one');
    if ((char === ',' && depth === 0) || index === text.length) {
      const part = text.slice(start, index);
      const open = part.indexOf('(');
      const name = (open === -1 ? part : part.slice(0, open)).trim();
      if (name === '') throw odataError('$expand', start, 'expected a navigation property name');
      if (open !== -1 && !part.trimEnd().endsWith(')')) throw odataError('$expand', index, `expected ')' after the options of ${name}`);
      const options = open === -1 ? undefined : part.slice(open + 1, part.trimEnd().length - 1);
      items.push({ name, at: start + part.indexOf(name), ...(options === undefined ? {} : { options }) });
      start = index + 1;
    }
  }
  if (depth !== 0) throw odataError('$expand', text.length, "expected ')'");
  return items;
}

/** The options inside `$expand=name(...)`: `$select` only (a list of names, or `*`); any other option is a 400. */
function parseNestedSelect(options: string, at: number, target: EdmEntityType | undefined): readonly string[] {
  const match = /^\s*\$select\s*=\s*([^;]*)$/i.exec(options);
  if (!match?.[1]) throw odataError('$expand', at, 'only $select is supported inside $expand (name($select=a,b))');
  const known = new Set(target?.properties.map((property) => property.name));
  return splitList('$expand', match[1]).map(({ name, at: offset }) => {
    if (name === '*' || !target || known.has(name) || (target.openType && name.startsWith(CUSTOM_PREFIX))) return name;
    throw odataError('$expand', at + offset, `unknown property '${name}' of ${target.name}`);
  });
}

/** The page size: `Prefer: odata.maxpagesize=N` (1 to 1000), else 100; and whether the preference was applied. */
export function readPageSize(prefer: string | null): { size: number; applied: boolean } {
  const match = /(?:^|[,;]\s*)odata\.maxpagesize\s*=\s*"?(\d{1,9})"?/i.exec(prefer ?? '');
  const asked = match ? Number(match[1]) : undefined;
  if (asked === undefined || asked < 1) return { size: DEFAULT_PAGE_SIZE, applied: false };
  return { size: Math.min(asked, MAX_PAGE_SIZE), applied: true };
}

/** The client's `$top` as a number, when it is a whole number (else today's engine words the error). */
export function readTop(params: URLSearchParams): { total?: number; raw?: string } {
  const raw = readOption(params, '$top');
  if (raw === undefined || raw.trim() === '') return {};
  return WHOLE.test(raw.trim()) ? { total: Number(raw.trim()) } : { raw };
}

const ENUM_PREFIX = /^Erp\.[A-Za-z_][A-Za-z0-9_]*(?=')/;

/** `$filter` with the standard enum literals (`Erp.ExchangeRateType'Market'`) as today's engine takes them (`'Market'`). */
export function rewriteEnumLiterals(filter: string): string {
  let out = '';
  let quoted = false;
  for (let index = 0; index < filter.length; index += 1) {
    const char = filter[index] ?? '';
    if (char === "'") quoted = !quoted;
    const prefix = quoted || /[\w.]/.test(filter[index - 1] ?? '') ? null : ENUM_PREFIX.exec(filter.slice(index));
    if (prefix) index += prefix[0].length - 1;
    else out += char;
  }
  return out;
}

/** The query of today's list for one page: the engine's options as sent, `$top` the page's size. */
export function buildListQuery(params: URLSearchParams, pageSize: number): URLSearchParams {
  const inner = new URLSearchParams();
  for (const [key, value] of params) {
    if (!key.startsWith('$') || OWN_OPTIONS.has(key.toLowerCase())) continue;
    inner.append(key, key.toLowerCase() === '$filter' ? rewriteEnumLiterals(value) : value);
  }
  const top = readTop(params);
  inner.set('$top', top.raw ?? String(Math.min(top.total ?? pageSize, pageSize)));
  return inner;
}

/**
 * The next page's link on the standard root, when today's list has one and the client's `$top` is not reached: the
 * options as sent, `$top` what is left of it, and today's `$skiptoken` (which already stands for any `$skip`).
 */
export function buildNextLink(base: string, params: URLSearchParams, innerNext: string | undefined, delivered: number): string | undefined {
  if (!innerNext) return undefined;
  const token = new URL(innerNext).searchParams.get('$skiptoken');
  if (token === null) return undefined;
  const { total } = readTop(params);
  if (total !== undefined && total - delivered <= 0) return undefined;
  const next = new URLSearchParams();
  for (const [key, value] of params) if (!['$skip', '$skiptoken', '$top'].includes(key.toLowerCase())) next.append(key, value);
  if (total !== undefined) next.set('$top', String(total - delivered));
  next.set('$skiptoken', token);
  return `${base}?${next.toString()}`;
}

/** The options a read of one entity does not take (a 400 names the first one sent). */
export function refuseCollectionOptions(params: URLSearchParams): void {
  for (const [key] of params) {
    const name = key.toLowerCase();
    if (['$filter', '$orderby', '$top', '$skip', '$skiptoken', '$count', '$search', '$apply'].includes(name)) {
      throw odataError(key, undefined, `${key} does not apply to a single entity`);
    }
  }
}
