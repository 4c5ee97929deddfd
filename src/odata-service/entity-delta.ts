/**
 * `GET set?$deltatoken=...` on the standard root: the changes of an entity set since a delta link was made (delta.ts),
 * the changed records read through today's OData list of the entity with the tracked read's `$filter`.
 */
import type { EntityResource } from '../model/resource';
import {
  buildChangedFilter,
  buildDeltaLink,
  buildRemovedEntry,
  countRecordsPerPage,
  decodeDeltaToken,
  readChanges,
  rewordFeedError,
} from './delta';
import type { DeltaChanges } from './delta';
import type { EdmEntitySet } from './model';
import { parseProjection, rewriteEnumLiterals } from './query';
import { odataJson } from './service';
import type { ServiceRequest } from './service';
import { shapeEntity } from './shape';
import { callRoute, readAnswer } from './translate';

type Record_ = Readonly<Record<string, unknown>>;

function readFilter(params: URLSearchParams): string | undefined {
  for (const [key, value] of params) if (key.toLowerCase() === '$filter') return value;
  return undefined;
}

/** The changed records that still exist and match the tracked read's `$filter`, as today's list answers them. */
async function readMatching(request: ServiceRequest, spec: EntityResource, filter: string | undefined, changes: DeltaChanges) {
  const ids = changes.latest.filter((row) => row.changeType !== 'deleted').map((row) => row.recordId);
  if (ids.length === 0) return [];
  const query = new URLSearchParams({ $filter: rewriteEnumLiterals(buildChangedFilter(filter, ids)), $top: String(ids.length) });
  const page = await readAnswer<{ items: Record_[] }>(
    await callRoute(request.ctx, { method: 'GET', shape: `${spec.basePath}/odata`, query }),
  );
  return page.items;
}

/** One page of changes after the token's position: entities, then `@removed` entries, then the next (or a new delta) link. */
export async function readEntityDelta(request: ServiceRequest, set: EdmEntitySet, spec: EntityResource, token: string): Promise<Response> {
  const { ctx, params, root, level } = request;
  const position = decodeDeltaToken(token);
  const projection = parseProjection(params, set.type);
  const filter = readFilter(params);
  let changes: DeltaChanges;
  try {
    changes = await readChanges(ctx.tenant, set, position, countRecordsPerPage(filter));
  } catch (error) {
    throw rewordFeedError(error);
  }
  const matching = await readMatching(request, spec, filter, changes);
  const found = new Set(matching.map((record) => record.id));
  const value = [
    ...matching.map((record) => shapeEntity(record, { type: set.type, level, root, set: set.name, projection })),
    ...changes.latest
      .filter((row) => !found.has(row.recordId) && !changes.born.has(row.recordId))
      .map((row) => buildRemovedEntry(set, row, root)),
  ];
  return answerDeltaPage(request, set, value, changes);
}

/** A page of changes (`...#{set}/$delta`): its entries, then the next page's link or, on the last, a new delta link. */
export function answerDeltaPage(request: ServiceRequest, set: EdmEntitySet, value: readonly unknown[], changes: DeltaChanges): Response {
  const { params, root, level } = request;
  const link = buildDeltaLink(root, set.name, params, changes.next);
  const body = {
    ...(level === 'none' ? {} : { '@odata.context': `${root}$metadata#${set.name}/$delta` }),
    value,
    ...(changes.hasMore ? { '@odata.nextLink': link } : { '@odata.deltaLink': link }),
  };
  return odataJson(request, body, 200, { 'preference-applied': 'odata.track-changes' });
}
