/**
 * Reads of reference sets (`companies`, `cultures`, ...) on the standard root, translated to today's
 * `GET /referenceData/{kind}`: the whole list in key order, as today answers it, with `$top`, `$skip`, `$count` and
 * `$select` applied to it. The sets are neither filterable nor sortable (their capability annotations say so): a
 * `$filter` or `$orderby` is a 400, never ignored.
 */
import { recordNotFound } from '../errors/api-error';
import type { ReferenceResource } from '../model/resource';
import { odataError } from '../odata/lexer';
import type { EdmEntitySet } from './model';
import { parseProjection, readTop, refuseCollectionOptions } from './query';
import type { KeyPredicate } from './resource-path';
import { countAnswer, odataJson } from './service';
import type { ServiceRequest } from './service';
import { buildContextUrl, shapeEntity } from './shape';
import { callRoute, readAnswer } from './translate';
import { asksTrackChanges, buildDeltaLink, readDeltaToken, startTracking } from './delta';
import { readReferenceDelta } from './reference-delta';

type Record_ = Readonly<Record<string, unknown>>;

function referenceSpecOf(set: EdmEntitySet): ReferenceResource {
  if (set.source.storage === 'entity') throw new Error(`${set.name} is not a reference set`);
  return set.source.spec;
}

async function listRecords(request: ServiceRequest, set: EdmEntitySet): Promise<Record_[]> {
  const answer = await callRoute(request.ctx, { method: 'GET', shape: '/referenceData/:', values: [set.name] });
  return (await readAnswer<{ items: Record_[] }>(answer)).items;
}

const UNSERVED = ['$filter', '$orderby', '$skiptoken', '$search', '$apply'];
/** A standard list (cultures, currencies) takes no delta token: it tracks nothing. */
const UNSERVED_UNTRACKED = [...UNSERVED, '$deltatoken'];

/** The whole number of `$skip`, or a 400 naming it. */
function readSkip(params: URLSearchParams): number {
  const raw = [...params].find(([key]) => key.toLowerCase() === '$skip')?.[1]?.trim();
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,15}$/.test(raw)) throw odataError('$skip', undefined, `'${raw}' is not a whole number of 0 or more`);
  return Number(raw);
}

/** `GET kind` and `GET kind/$count`. */
export async function readReferenceCollection(request: ServiceRequest, set: EdmEntitySet, count: boolean): Promise<Response> {
  const { params, level, root } = request;
  const unserved = set.capabilities.trackable ? UNSERVED : UNSERVED_UNTRACKED;
  for (const [key] of params) {
    if (unserved.includes(key.toLowerCase())) throw odataError(key, undefined, `the reference set ${set.name} does not take ${key}`);
  }
  const token = count ? undefined : readDeltaToken(params);
  if (token !== undefined && set.capabilities.trackable) return readReferenceDelta(request, set, token, () => listRecords(request, set));
  const tracked =
    !count && set.capabilities.trackable && asksTrackChanges(request.ctx.request.headers.get('prefer'))
      ? await startTracking(request.ctx.tenant, params)
      : undefined;
  const records = await listRecords(request, set);
  if (count) return countAnswer(records.length);
  const projection = parseProjection(params, set.type);
  const top = readTop(params);
  if (top.raw !== undefined) throw odataError('$top', undefined, `'${top.raw}' is not a whole number of 0 or more`);
  const skip = readSkip(params);
  const page = records.slice(skip, top.total === undefined ? undefined : skip + top.total);
  const counted = [...params].some(([key, value]) => key.toLowerCase() === '$count' && value.trim().toLowerCase() === 'true');
  const body = {
    ...(level === 'none' ? {} : { '@odata.context': buildContextUrl(root, set.name, projection) }),
    ...(counted ? { '@odata.count': records.length } : {}),
    value: page.map((record) => shapeEntity(record, { type: set.type, level, root, set: set.name, projection })),
    ...(tracked === undefined ? {} : { '@odata.deltaLink': buildDeltaLink(root, set.name, params, tracked) }),
  };
  return odataJson(request, body, 200, tracked === undefined ? {} : { 'preference-applied': 'odata.track-changes' });
}

/** `GET kind('key')` (the key in any spelling its kind canonicalizes), or `GET kind(<guid>)` by id. */
export async function readReferenceEntity(request: ServiceRequest, set: EdmEntitySet, key: KeyPredicate): Promise<Response> {
  refuseCollectionOptions(request.params);
  const [first] = key.values;
  if (!first || key.values.length !== 1 || (first.name !== undefined && first.name !== 'key') || first.value.type === 'number') {
    throw odataError('key', undefined, `the key of ${set.name} is one quoted string: ${set.name}('...')`);
  }
  const spec = referenceSpecOf(set);
  const wanted = first.value.type === 'string' && spec.canonicalKey ? spec.canonicalKey(first.value.value) : first.value.value;
  const records = await listRecords(request, set);
  const record = records.find((candidate) =>
    first.value.type === 'guid' ? candidate.id === wanted || candidate.key === wanted : candidate.key === wanted,
  );
  if (!record) throw recordNotFound(`${set.name} record '${first.value.value}'`, true, 'key');
  const projection = parseProjection(request.params, set.type);
  const { level, root } = request;
  const context = level === 'none' ? {} : { '@odata.context': buildContextUrl(root, set.name, projection, '/$entity') };
  return odataJson(request, { ...context, ...shapeEntity(record, { type: set.type, level, root, set: set.name, projection }) });
}

/** The key a reference key predicate names (writes by key). */
export function readReferenceKey(set: EdmEntitySet, key: KeyPredicate): string {
  const [first] = key.values;
  if (key.values.length !== 1 || (first?.name !== undefined && first.name !== 'key') || first?.value.type !== 'string') {
    throw odataError('key', undefined, `the key of ${set.name} is one quoted string: ${set.name}('...')`);
  }
  return first.value.value;
}
