/**
 * Writes on the standard root, translated to today's operations (the same validation, rules, events and idempotency):
 * POST set -> `POST {basePath}` (then the created record is read back for the answer); DELETE set(key) ->
 * `DELETE {basePath}/{key path}`; PATCH (merge) and PUT (replace) set(key) -> `PATCH` / `PUT {basePath}/{key path}`
 * of today's entity routes, with `If-Match` as sent. Reference sets: PUT kind('key') upserts that one record
 * (`PUT /referenceData/{kind}`), DELETE kind('key') deletes it.
 */
import { ApiError } from '../errors/api-error';
import { readJsonBody } from '../http/body';
import type { Method } from '../http/route';
import { isPlainObject } from '../validation/values';
import { answerEntity, locateRecord } from './entity-reads';
import type { EdmEntitySet } from './model';
import { parseProjection } from './query';
import { readReferenceKey } from './reference-reads';
import type { KeyPredicate } from './resource-path';
import type { ServiceRequest } from './service';
import { formatKeyPredicate } from './shape';
import { callRoute, readAnswer } from './translate';

/** `return=minimal` or `return=representation` of `Prefer`, if asked. */
function readReturnPreference(request: ServiceRequest): 'minimal' | 'representation' | undefined {
  const match = /(?:^|[,;]\s*)return\s*=\s*(minimal|representation)/i.exec(request.ctx.request.headers.get('prefer') ?? '');
  return match?.[1]?.toLowerCase() as 'minimal' | 'representation' | undefined;
}

function refuseWrite(set: EdmEntitySet, method: string, allowed: string): never {
  throw new ApiError('MethodNotAllowed', `${method} is not allowed on ${set.name}; use ${allowed}.`, { headers: { allow: allowed } });
}

/** `POST set`: 201 with the created entity (204 with `Prefer: return=minimal`), `Location` on the standard root. */
export async function createEntity(request: ServiceRequest, set: EdmEntitySet): Promise<Response> {
  if (set.source.storage !== 'entity') return refuseWrite(set, 'POST', 'GET');
  const spec = set.source.spec;
  const { ctx, root } = request;
  const created = await callRoute(ctx, { method: 'POST', shape: spec.basePath, request: ctx.request });
  const id = await readAnswer<string>(created);
  const read = await callRoute(ctx, { method: 'GET', shape: `${spec.basePath}/:`, values: [id] });
  const record = await readAnswer<Readonly<Record<string, unknown>>>(read);
  const location = `${root}${set.name}${formatKeyPredicate(set.type, record)}`;
  const etag = read.headers.get('etag');
  if (readReturnPreference(request) === 'minimal') {
    const headers: Record<string, string> = { location, 'odata-entityid': location, 'preference-applied': 'return=minimal' };
    if (etag) headers.etag = etag;
    return new Response(null, { status: 204, headers });
  }
  return answerEntity(request, set, record, parseProjection(request.params, set.type), etag, 201, { location });
}

/** `DELETE set(key)`: 204. */
export async function deleteEntity(request: ServiceRequest, set: EdmEntitySet, key: KeyPredicate): Promise<Response> {
  const { ctx } = request;
  if (set.source.storage === 'entity') {
    await callRoute(ctx, { method: 'DELETE', ...locateRecord(set.source.spec, key) });
  } else {
    await callRoute(ctx, { method: 'DELETE', shape: '/referenceData/:/:', values: [set.name, readReferenceKey(set, key)] });
  }
  return new Response(null, { status: 204 });
}

/** A reference record's PUT: the one record upserted by key (the key of the path wins over one in the body). */
async function putReferenceRecord(request: ServiceRequest, set: EdmEntitySet, key: KeyPredicate): Promise<Response> {
  const { ctx } = request;
  const body = await readJsonBody(ctx.request);
  const record = isPlainObject(body) ? { ...body, key: readReferenceKey(set, key) } : body;
  const inner = new Request(ctx.request.url, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'accept-language': ctx.request.headers.get('accept-language') ?? '' },
    body: JSON.stringify([record]),
  });
  await callRoute(ctx, { method: 'PUT', shape: '/referenceData/:', values: [set.name], request: inner });
  return new Response(null, { status: 204 });
}

/**
 * `PATCH` / `PUT set(key)`: today's operation of that method on the record's path answers; a JSON record it answers
 * is the representation (200 with `Prefer: return=representation`), else 204 with its `ETag`.
 */
export async function updateEntity(request: ServiceRequest, set: EdmEntitySet, key: KeyPredicate, method: Method): Promise<Response> {
  if (set.source.storage !== 'entity') {
    if (method === 'PUT' && set.capabilities.updatable) return putReferenceRecord(request, set, key);
    return refuseWrite(set, method, set.capabilities.updatable ? 'GET, PUT, DELETE' : 'GET');
  }
  const { ctx } = request;
  const answer = await callRoute(ctx, { method, ...locateRecord(set.source.spec, key), request: ctx.request });
  const etag = answer.headers.get('etag');
  const text = await answer.text();
  const record: unknown = text === '' ? undefined : JSON.parse(text);
  if (isPlainObject(record) && readReturnPreference(request) === 'representation') {
    return answerEntity(request, set, record, parseProjection(request.params, set.type), etag, 200, {
      'preference-applied': 'return=representation',
    });
  }
  return new Response(null, { status: 204, headers: etag ? { etag } : {} });
}
