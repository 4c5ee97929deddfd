/**
 * Reads of entity sets on the standard root, translated to today's operations: a collection is a page of today's
 * OData list (`GET {basePath}/odata`, with its cost bounds), a single entity today's read by key or id, a navigation
 * (route members, rate lines) that read's property.
 */
import type { EntityResource } from '../model/resource';
import { odataError } from '../odata/lexer';
import type { EdmEntitySet, EdmEntityType } from './model';
import { findEntityType } from './model';
import { buildListQuery, buildNextLink, parseProjection, readPageSize, refuseCollectionOptions } from './query';
import type { KeyPredicate, KeyValue } from './resource-path';
import { countAnswer, odataJson, SERVICE_MODEL } from './service';
import type { ServiceRequest } from './service';
import { buildContextUrl, shapeEntity } from './shape';
import type { Projection } from './shape';
import { callRoute, readAnswer } from './translate';
import { asksTrackChanges, buildDeltaLink, carryTracking, readDeltaToken, startTracking, TRACK_FROM } from './delta';
import { readEntityDelta } from './entity-delta';
import type { RouteCall } from './translate';

type Record_ = Readonly<Record<string, unknown>>;

/** A literal of the right kind for a key field: numbers for `int`, quoted text (or a GUID, for a `guid`) otherwise. */
function keyText(spec: EntityResource, name: string, value: KeyValue): string {
  const kind = spec.fields[name]?.kind;
  const fits = kind === 'int' ? value.type === 'number' : value.type === 'string' || (kind === 'guid' && value.type === 'guid');
  if (!fits) throw odataError('key', undefined, `${name} takes ${kind === 'int' ? 'a number' : "a quoted string ('...')"}`);
  return value.value;
}

/** The path of today's read (and delete, update) of the record a key predicate names. */
export function locateRecord(spec: EntityResource, key: KeyPredicate): Pick<RouteCall, 'shape' | 'values' | 'targets'> {
  const [first] = key.values;
  if (!first) throw odataError('key', undefined, 'the key predicate is empty');
  const byRecordShape = (values: readonly string[], targets: readonly string[] = spec.key) => ({
    shape: `${spec.basePath}${'/:'.repeat(values.length)}`,
    values,
    targets,
  });
  // An unquoted GUID alone names the record by id (today's `/{id}`), unless the key itself is a GUID.
  if (
    key.values.length === 1 &&
    first?.name === undefined &&
    first?.value.type === 'guid' &&
    spec.fields[spec.key[0] ?? '']?.kind !== 'guid'
  ) {
    return byRecordShape([first.value.value], ['id']);
  }
  if (key.values.length === 1 && first.name === undefined && spec.key.length === 1) {
    return byRecordShape([keyText(spec, spec.key[0] ?? '', first.value)]);
  }
  const named = new Map(key.values.map((entry) => [entry.name ?? '', entry.value]));
  const complete = named.size === key.values.length && named.size === spec.key.length && spec.key.every((name) => named.has(name));
  if (!complete) throw odataError('key', undefined, `the key of ${spec.name} is ${spec.key.map((name) => `${name}=...`).join(',')}`);
  return byRecordShape(spec.key.map((name) => keyText(spec, name, named.get(name) ?? { type: 'string', value: '' })));
}

function entitySpecOf(set: EdmEntitySet): EntityResource {
  if (set.source.storage !== 'entity') throw new Error(`${set.name} is not an entity set`);
  return set.source.spec;
}

/** `GET set` and `GET set/$count`. */
export async function readEntityCollection(request: ServiceRequest, set: EdmEntitySet, count: boolean): Promise<Response> {
  const spec = entitySpecOf(set);
  const { ctx, params, root, level } = request;
  const shape = `${spec.basePath}/odata`;
  if (count) {
    const query = new URLSearchParams();
    for (const [key, value] of params) if (['$filter', '$search'].includes(key.toLowerCase())) query.append(key, value);
    query.set('$count', 'true');
    query.set('$top', '0');
    const page = await readAnswer<{ count: number }>(await callRoute(ctx, { method: 'GET', shape, query }));
    return countAnswer(page.count);
  }
  const token = readDeltaToken(params);
  if (token !== undefined) return readEntityDelta(request, set, spec, token);
  const projection = parseProjection(params, set.type, SERVICE_MODEL.entityTypes);
  const prefer = ctx.request.headers.get('prefer');
  const pageSize = readPageSize(prefer);
  const tracked = asksTrackChanges(prefer) || params.has(TRACK_FROM) ? await startTracking(ctx.tenant, params) : undefined;
  const page = await readAnswer<{ items: Record_[]; count?: number; nextPageLink?: string }>(
    await callRoute(ctx, { method: 'GET', shape, query: buildListQuery(params, pageSize.size) }),
  );
  const value = page.items.map((item) => shapeEntity(item, { type: set.type, level, root, set: set.name, projection }));
  const nextLink = buildNextLink(`${root}${set.name}`, params, page.nextPageLink, value.length);
  const links =
    tracked === undefined
      ? { ...(nextLink ? { '@odata.nextLink': nextLink } : {}) }
      : nextLink
        ? { '@odata.nextLink': carryTracking(nextLink, tracked) }
        : { '@odata.deltaLink': buildDeltaLink(root, set.name, params, tracked) };
  const body = {
    ...(level === 'none' ? {} : { '@odata.context': buildContextUrl(root, set.name, projection) }),
    ...(page.count === undefined ? {} : { '@odata.count': page.count }),
    value,
    ...links,
  };
  const applied = [
    ...(pageSize.applied ? [`odata.maxpagesize=${pageSize.size}`] : []),
    ...(tracked === undefined ? [] : ['odata.track-changes']),
  ];
  return odataJson(request, body, 200, applied.length > 0 ? { 'preference-applied': applied.join(', ') } : {});
}

/** Today's read of the record a key predicate names: the record and its ETag. */
async function readRecord(
  request: ServiceRequest,
  spec: EntityResource,
  key: KeyPredicate,
): Promise<{ record: Record_; etag: string | null }> {
  const answer = await callRoute(request.ctx, { method: 'GET', ...locateRecord(spec, key) });
  return { record: await readAnswer<Record_>(answer), etag: answer.headers.get('etag') };
}

/** `GET set(key)`. */
export async function readEntity(request: ServiceRequest, set: EdmEntitySet, key: KeyPredicate): Promise<Response> {
  refuseCollectionOptions(request.params);
  const projection = parseProjection(request.params, set.type, SERVICE_MODEL.entityTypes);
  const { record, etag } = await readRecord(request, entitySpecOf(set), key);
  return answerEntity(request, set, record, projection, etag);
}

/** One entity of `set` as the standard root answers it (a read, or a write that returns its representation). */
export function answerEntity(
  request: ServiceRequest,
  set: EdmEntitySet,
  record: Record_,
  projection: Projection,
  etag: string | null,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  const { level, root } = request;
  const entity = shapeEntity(record, { type: set.type, level, root, set: set.name, projection });
  const context = level === 'none' ? {} : { '@odata.context': buildContextUrl(root, set.name, projection, '/$entity') };
  return odataJson(request, { ...context, ...entity }, status, { ...(etag ? { etag } : {}), ...headers });
}

function navigationType(set: EdmEntitySet, name: string): EdmEntityType {
  const navigation = set.type.navigations.find((candidate) => candidate.name === name);
  const type = navigation && findEntityType(SERVICE_MODEL, navigation.type);
  if (!type) throw odataError('path', undefined, `${set.name} has no navigation property '${name}'`);
  return type;
}

/** `GET set(key)/members` and `.../$count`: the contained members or lines of one record. */
export async function readNavigation(
  request: ServiceRequest,
  set: EdmEntitySet,
  path: { key: KeyPredicate; navigation: string; count: boolean },
): Promise<Response> {
  const type = navigationType(set, path.navigation);
  refuseCollectionOptions(request.params);
  const projection = path.count ? { expand: [] } : parseProjection(request.params, type);
  const { record } = await readRecord(request, entitySpecOf(set), path.key);
  const items = Array.isArray(record[path.navigation]) ? (record[path.navigation] as Record_[]) : [];
  if (path.count) return countAnswer(items.length);
  const { level, root, ctx } = request;
  const value = items.map((item) => shapeEntity(item, { type, level, root, projection }));
  const target = ctx.url.pathname.split('/').slice(4).join('/');
  const context = level === 'none' ? {} : { '@odata.context': buildContextUrl(root, decodeURIComponent(target), projection) };
  return odataJson(request, { ...context, value });
}
