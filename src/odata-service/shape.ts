/**
 * Answer shaping of the standard root (pure): today's records as OData v4 JSON entities (enum values by member name,
 * `@odata.etag`, navigation properties only when expanded, `$select` applied), the control information of each
 * `odata.metadata` level, key predicates of canonical URLs and the context URLs.
 */
import { ApiError } from '../errors/api-error';
import { etagOf } from '../http/responses';
import type { EdmEntityType } from './model';
import { NAMESPACE } from './model';

export type MetadataLevel = 'minimal' | 'none' | 'full';

const METADATA_PARAMETER = /(?:^|;)\s*odata\.metadata\s*=\s*(minimal|none|full)\s*(?:;|$)/i;

/** The `odata.metadata` level: `$format` (`json`, `application/json;odata.metadata=none`), else `Accept`, else minimal. */
export function parseMetadataLevel(accept: string | null, format: string | null): MetadataLevel {
  if (format !== null && format !== '') {
    const [type = ''] = format.split(';');
    if (!['json', 'application/json'].includes(type.trim().toLowerCase())) {
      throw new ApiError('NotAcceptable', `$format ${format} is not served; use json (application/json).`);
    }
    return (METADATA_PARAMETER.exec(format)?.[1]?.toLowerCase() as MetadataLevel | undefined) ?? 'minimal';
  }
  for (const range of (accept ?? '').split(',')) {
    const level = METADATA_PARAMETER.exec(range.slice(range.indexOf(';') + 1))?.[1];
    if (range.trim().toLowerCase().startsWith('application/json') && level) return level.toLowerCase() as MetadataLevel;
  }
  return 'minimal';
}

/** A literal of a key value in a URL: strings quoted, a quote doubled, percent-encoded (quotes and parentheses kept). */
function formatKeyValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return encodeURIComponent(`'${String(value).replace(/'/g, "''")}'`);
}

/** `('welcome')`, `(7)`, `(company='C1',routeKey='R1')`: the key predicate of a record's canonical URL. */
export function formatKeyPredicate(type: EdmEntityType, record: Readonly<Record<string, unknown>>): string {
  if (type.key.length === 1) return `(${formatKeyValue(record[type.key[0] ?? ''])})`;
  return `(${type.key.map((name) => `${name}=${formatKeyValue(record[name])}`).join(',')})`;
}

/** What a read asked for: `$select` (undefined: every property) and `$expand`ed navigation properties. */
export interface Projection {
  readonly select?: readonly string[];
  readonly expand: readonly string[];
  /** `$expand=name($select=a,b)`: the properties kept of each expanded item, by navigation property. */
  readonly nested?: Readonly<Record<string, readonly string[]>>;
}

interface EntityShape {
  readonly type: EdmEntityType;
  readonly level: MetadataLevel;
  /** Absolute service root, ending with `/`. */
  readonly root: string;
  /** The entity set (for `@odata.id` in full metadata), when the record is addressable from it. */
  readonly set?: string;
  readonly projection: Projection;
}

/** An enum property's value by member name (a choice's value is its name already). */
function shapeValue(type: EdmEntityType, name: string, value: unknown): unknown {
  const enumType = type.properties.find((property) => property.name === name)?.enumType;
  if (!enumType || enumType.fromChoice || typeof value !== 'number') return value;
  return enumType.members.find((member) => member.value === value)?.name ?? value;
}

/** The names a record keeps: selected structural and dynamic properties, then the expanded navigation properties. */
function listKept(type: EdmEntityType, record: Readonly<Record<string, unknown>>, projection: Projection): string[] {
  const navigations = new Set(type.navigations.map((navigation) => navigation.name));
  const select = projection.select;
  const structural = Object.keys(record).filter((name) => !navigations.has(name));
  const kept = select === undefined || select.includes('*') ? structural : structural.filter((name) => select.includes(name));
  return [...kept, ...projection.expand.filter((name) => navigations.has(name))];
}

/** One record of today's answers as an OData entity of `type`. */
export function shapeEntity(record: Readonly<Record<string, unknown>>, shape: EntityShape): Record<string, unknown> {
  const { type, level } = shape;
  const entity: Record<string, unknown> = {};
  if (level === 'full') entity['@odata.type'] = `#${NAMESPACE}.${type.name}`;
  if (level === 'full' && shape.set) {
    const id = `${shape.root}${shape.set}${formatKeyPredicate(type, record)}`;
    entity['@odata.id'] = id;
    entity['@odata.editLink'] = id;
  }
  if (level !== 'none' && typeof record.version === 'number') entity['@odata.etag'] = etagOf(record.version);
  for (const name of listKept(type, record, shape.projection)) entity[name] = shapeValue(type, name, record[name]);
  for (const [name, select] of Object.entries(shape.projection.nested ?? {})) {
    const items = entity[name];
    if (Array.isArray(items)) entity[name] = items.map((item: unknown) => keepSelected(item, select));
  }
  return entity;
}

/** An expanded item with only the properties its nested `$select` names (`*`: all). */
function keepSelected(item: unknown, select: readonly string[]): unknown {
  if (select.includes('*') || typeof item !== 'object' || item === null) return item;
  return Object.fromEntries(Object.entries(item).filter(([name]) => select.includes(name)));
}

/** `{root}$metadata#{path}`, with the select list when `$select` narrowed the answer. */
export function buildContextUrl(root: string, path: string, projection: Projection, suffix = ''): string {
  const expanded = projection.expand.map((name) => {
    const nested = projection.nested?.[name];
    return nested ? `${name}(${nested.join(',')})` : name;
  });
  const select = projection.select && !projection.select.includes('*') ? `(${[...projection.select, ...expanded].join(',')})` : '';
  return `${root}$metadata#${path}${select}${suffix}`;
}
