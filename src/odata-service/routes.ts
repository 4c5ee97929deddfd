/**
 * The standard OData v4 service root `/odata/{tenantKey}/{orgKey}/`: the service document, `$metadata` (CSDL XML, or
 * CSDL JSON when asked), and every resource path below it (entity sets, key predicates, navigation, `$count`), read and
 * written through today's operations. Admitted exactly as `/api/{tenantKey}/{orgKey}` is (src/http/app.ts).
 */
import type { Method, ServiceRoot, ServiceRootRoute } from '../http/route';
import { writeCsdlJson } from './csdl-json';
import { writeCsdlXml } from './csdl-xml';
import { readEntity, readEntityCollection, readNavigation } from './entity-reads';
import { finishServiceAnswer } from './errors';
import { readReferenceCollection, readReferenceEntity } from './reference-reads';
import { parseResourcePath } from './resource-path';
import { findEntitySet, odataJson, openServiceRequest, SERVICE_MODEL } from './service';
import type { ServiceRequest } from './service';
import { createEntity, deleteEntity, updateEntity } from './writes';
import { odataError } from '../odata/lexer';
import { handleBatch } from '../services/batch/handle';
import { ApiError } from '../errors/api-error';

const METADATA_XML = writeCsdlXml(SERVICE_MODEL);
const METADATA_JSON = JSON.stringify(writeCsdlJson(SERVICE_MODEL));

/** CSDL JSON for `$format=json` or an `Accept` that takes JSON but not XML; CSDL XML otherwise. */
function wantsJsonMetadata(request: Request, url: URL): boolean {
  const format = [...url.searchParams].find(([key]) => key.toLowerCase() === '$format')?.[1]?.toLowerCase();
  if (format !== undefined) return format.startsWith('json') || format.startsWith('application/json');
  const accept = (request.headers.get('accept') ?? '').toLowerCase();
  return accept.includes('application/json') && !accept.includes('xml');
}

function serveServiceDocument(request: ServiceRequest): Response {
  const value = SERVICE_MODEL.entitySets.map((set) => ({ name: set.name, kind: 'EntitySet', url: set.name }));
  return odataJson(request, { ...(request.level === 'none' ? {} : { '@odata.context': `${request.root}$metadata` }), value });
}

/** Every resource path of one method. */
async function serveResource(request: ServiceRequest, method: Method): Promise<Response> {
  const path = parseResourcePath(request.ctx.url.pathname.split('/').slice(4).join('/'));
  const set = findEntitySet(path.set);
  const entitySet = set.source.storage === 'entity';
  if (method === 'GET') {
    if (path.kind === 'collection')
      return entitySet ? readEntityCollection(request, set, path.count) : readReferenceCollection(request, set, path.count);
    if (path.kind === 'entity') return entitySet ? readEntity(request, set, path.key) : readReferenceEntity(request, set, path.key);
    return readNavigation(request, set, path);
  }
  if (path.kind === 'collection' && method === 'POST' && !path.count) return createEntity(request, set);
  if (path.kind === 'entity' && method === 'DELETE') return deleteEntity(request, set, path.key);
  if (path.kind === 'entity' && (method === 'PATCH' || method === 'PUT')) return updateEntity(request, set, path.key, method);
  if (path.kind === 'navigation') throw odataError('path', undefined, `${path.navigation} is written through its ${set.name} record`);
  const allowed = path.kind === 'collection' ? 'GET, POST' : 'GET, PATCH, PUT, DELETE';
  throw new ApiError('MethodNotAllowed', `${method} is not allowed here; use ${allowed}.`, { headers: { allow: allowed } });
}

const RESOURCE_METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** The routes, in matching order: the fixed paths (`$metadata`; `$batch` belongs before the resource paths too), then every resource path. */
const serviceRoutes: ServiceRootRoute[] = [
  { method: 'GET', path: '', handle: async (ctx) => serveServiceDocument(openServiceRequest(ctx)) },
  {
    method: 'GET',
    path: '/$metadata',
    handle: async (ctx) =>
      wantsJsonMetadata(ctx.request, ctx.url)
        ? new Response(METADATA_JSON, { headers: { 'content-type': 'application/json; charset=utf-8' } })
        : new Response(METADATA_XML, { headers: { 'content-type': 'application/xml; charset=utf-8' } }),
  },
  { method: 'POST', path: '/$batch', handle: (ctx) => handleBatch(ctx, 'odata') },
  ...RESOURCE_METHODS.map((method) => ({
    method,
    path: '/:resource+',
    handle: async (ctx: Parameters<ServiceRootRoute['handle']>[0]) => serveResource(openServiceRequest(ctx), method),
  })),
];

export const serviceRoot: ServiceRoot = { routes: serviceRoutes, finish: finishServiceAnswer };
