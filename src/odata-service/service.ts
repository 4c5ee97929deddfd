/** The standard root's model of this application (from the registry's descriptions) and what each request on it knows. */
import { ApiError } from '../errors/api-error';
import type { ApiContext } from '../http/context';
import { matchLiteralSegment } from '../http/segments';
import { REFERENCE_KINDS } from '../resources/reference/kinds';
import { serviceEntitySpecs, serviceLineSpecs } from '../services/registry';
import { buildServiceModel } from './model';
import type { EdmEntitySet, ServiceModel } from './model';
import { parseMetadataLevel } from './shape';
import type { MetadataLevel } from './shape';

export const SERVICE_MODEL: ServiceModel = buildServiceModel({
  entities: serviceEntitySpecs,
  lines: serviceLineSpecs,
  kinds: REFERENCE_KINDS,
});

const SET_NAMES = SERVICE_MODEL.entitySets.map((set) => set.name);

/** One request on the standard root. */
export interface ServiceRequest {
  readonly ctx: ApiContext;
  /** `{origin}/odata/{tenantKey}/{orgKey}/`. */
  readonly root: string;
  readonly level: MetadataLevel;
  readonly params: URLSearchParams;
}

export function openServiceRequest(ctx: ApiContext): ServiceRequest {
  const { tenantKey = '', orgKey = '' } = ctx.params;
  const format = [...ctx.url.searchParams].find(([key]) => key.toLowerCase() === '$format')?.[1] ?? null;
  return {
    ctx,
    root: `${ctx.url.origin}/odata/${encodeURIComponent(tenantKey)}/${encodeURIComponent(orgKey)}/`,
    level: parseMetadataLevel(ctx.request.headers.get('accept'), format),
    params: ctx.url.searchParams,
  };
}

/** The entity set named `name` (in any case, as today's literal segments), or 404. */
export function findEntitySet(name: string): EdmEntitySet {
  const found = matchLiteralSegment(SET_NAMES, name);
  const set = SERVICE_MODEL.entitySets.find((candidate) => candidate.name === found);
  if (!set) throw new ApiError('NotFound', `No entity set '${name}'. The service document (GET ./) lists them.`);
  return set;
}

/** A JSON answer of the standard root, with the metadata level it was written for. */
export function odataJson(request: ServiceRequest, body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': `application/json; odata.metadata=${request.level}; charset=utf-8`, ...headers },
  });
}

/** `/$count`: the number as plain text. */
export function countAnswer(count: number): Response {
  return new Response(String(count), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
