/**
 * Change tracking of reference sets (`companies`, `locations`, ...) on the standard root: a tracked read answers the
 * whole list (as an untracked one does) and a delta link; following it answers the records of the kind changed since
 * (read from today's whole list, what the tracked read cost) and `@removed` entries for those deleted. Standard lists
 * (`cultures`, `currencies`) are the same for every tenant/org and never change through the API: they track nothing.
 */
import { buildRemovedEntry, decodeDeltaToken, readChanges, rewordFeedError } from './delta';
import type { DeltaChanges } from './delta';
import type { EdmEntitySet } from './model';
import { parseProjection } from './query';
import { answerDeltaPage } from './entity-delta';
import type { ServiceRequest } from './service';
import { shapeEntity } from './shape';

type Record_ = Readonly<Record<string, unknown>>;

/** Events a reference delta page reads at most: the page re-reads the kind's whole list once, whatever their number. */
const EVENTS_PER_PAGE = 1000;

/** One page of changes of a reference set after the token's position, then the next (or a new delta) link. */
export async function readReferenceDelta(
  request: ServiceRequest,
  set: EdmEntitySet,
  token: string,
  listRecords: () => Promise<readonly Record_[]>,
): Promise<Response> {
  const { ctx, params, root, level } = request;
  const position = decodeDeltaToken(token);
  const projection = parseProjection(params, set.type);
  let changes: DeltaChanges;
  try {
    changes = await readChanges(ctx.tenant, set, position, EVENTS_PER_PAGE);
  } catch (error) {
    throw rewordFeedError(error);
  }
  const live = changes.latest.filter((row) => row.changeType !== 'deleted');
  const records = live.length === 0 ? [] : await listRecords();
  const byId = new Map(records.map((record) => [record.id, record]));
  const value = changes.latest.flatMap((row) => {
    const record = row.changeType === 'deleted' ? undefined : byId.get(row.recordId);
    if (record) return [shapeEntity(record, { type: set.type, level, root, set: set.name, projection })];
    return changes.born.has(row.recordId) ? [] : [buildRemovedEntry(set, row, root)];
  });
  return answerDeltaPage(request, set, value, changes);
}
