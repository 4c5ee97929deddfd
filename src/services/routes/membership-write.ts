/**
 * A membership change as a write of the request's unit of work (src/tenant/unit-of-work.ts): the batch of
 * membership-batch.ts, compiled once per isolate and shape or built for a request that sets custom attribute values,
 * planned at commit with the unit's scope and audit stamp; the route's `updated` event is built by the commit path.
 */
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { CustomValues } from '../../resources/entities/custom-attributes';
import { bindCompiled, bindRequestQuery, bindRequestStatement } from '../../tenant/compiled';
import type { BoundStatement } from '../../db/sql';
import { rowsOf } from '../../tenant/unit-of-work';
import type { PlannedEvent, StagedWrite, WriteContext } from '../../tenant/unit-of-work';
import { ROUTE_SUMMARY } from './find-route';
import type { RouteSummary } from './find-route';
import { buildMembershipBatch, fillMembershipBatch, membershipBatches, buildRecordFields, TOUCHED } from './membership-batch';
import type { MembershipTarget } from './membership-batch';
import { predictMembership } from './membership-predict';
import type { MembershipRows } from './membership-predict';

/** A record named, as statement [1] answers it. */
type NamedRecord = SelectResultFields<ReturnType<typeof buildRecordFields>>;

/** The batch's statements for one request, bound, and its event as the unit of work stages it. */
interface MembershipStatements {
  readonly candidates: BoundStatement<RouteSummary>;
  readonly records: BoundStatement<NamedRecord>;
  readonly event: PlannedEvent;
  readonly touch: BoundStatement<{ version: number }>;
  readonly change: BoundStatement<unknown>;
}

/** The batch built for this request (it sets custom attribute values, which are never compiled). */
function bindBuilt({ scope, stamp }: WriteContext, target: MembershipTarget, custom: CustomValues): MembershipStatements {
  const [candidates, records, event, touch, change] = buildMembershipBatch(scope, target, custom, stamp);
  return {
    candidates: bindRequestQuery(candidates, ROUTE_SUMMARY),
    records: bindRequestQuery(records, buildRecordFields(target.kind)),
    event,
    touch: bindRequestQuery(touch, TOUCHED),
    change: bindCompiled(bindRequestStatement(change), {}),
  };
}

/** The batch compiled once per isolate and shape, its placeholders filled for this request. */
function bindCompiledBatch({ scope, stamp }: WriteContext, target: MembershipTarget): MembershipStatements {
  const shape = { action: target.action, by: target.by, withCompany: target.companyKey !== null };
  const [candidates, records, event, touch, change] = membershipBatches.read(target.kind, shape);
  const values = fillMembershipBatch(scope, target, stamp);
  return {
    candidates: bindCompiled(candidates, values),
    records: bindCompiled(records, values),
    event: { compiled: event, values },
    touch: bindCompiled(touch, values),
    change: bindCompiled(change, values),
  };
}

/**
 * One membership change, staged in a unit of work (one round trip when committed alone): [0] the routes with the
 * routeKey, [1] the records named, [2] the route's event, [3] its version bump, [4] the member inserts or deletes.
 */
export function stageMembershipChange(target: MembershipTarget, custom: CustomValues): StagedWrite<MembershipRows> {
  return {
    // In an atomic group: predicted from the group's routes, records and members (membership-predict.ts).
    predict: (context) => predictMembership(context, target, custom),
    plan(context) {
      const bound = Object.keys(custom).length > 0 ? bindBuilt(context, target, custom) : bindCompiledBatch(context, target);
      const { candidates, records, touch } = bound;
      return {
        table: 'routes',
        // A rule of the database that refuses an atomic group's batch because of this change: its 400 names `value`.
        rulePaths: ['value'],
        statements: [
          { statement: candidates },
          { statement: records },
          { event: bound.event },
          { statement: touch },
          { statement: bound.change },
        ],
        settle: ([found, named, , touched]) => ({
          candidates: rowsOf(candidates, found),
          records: rowsOf(records, named),
          touched: rowsOf(touch, touched),
        }),
      };
    },
  };
}
