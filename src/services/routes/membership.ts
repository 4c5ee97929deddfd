/**
 * The eight membership operations (`/{routeKey}/locations/add`, `.../equipmentitems/removeById`, ...):
 * all-or-nothing (any unknown key or id fails the whole request), idempotent, members of the route's company.
 */
import { writeUnderRules } from '../../db/rules';
import { loadCustomDefinitions, validateCustomValues } from '../../resources/entities/custom-attributes';
import type { CustomValues } from '../../resources/entities/custom-attributes';
import { readJsonBody } from '../../http/body';
import { openRequestUnit } from '../../http/context';
import type { ApiContext } from '../../http/context';
import { errorOfFields, validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { emptyResponse, etagOf } from '../../http/responses';
import { pickMembershipRoute } from './find-route';
import type { RouteSummary } from './find-route';
import { toMemberRecord } from './members';
import type { MemberKind, MemberRecord } from './members';
import { parseMembershipBody } from './membership-body';
import type { MembershipBy } from './membership-body';
import type { MembershipAction } from './membership-batch';
import { stageMembershipChange } from './membership-write';
import { message } from '../../messages/catalogue';
import { commitAlone } from '../../tenant/unit-of-work';

export type { MembershipAction } from './membership-batch';

/** Every value must name an existing record of the kind; returns the records in request order. */
function requireRecords(
  kind: MemberKind,
  by: MembershipBy,
  values: readonly string[],
  paths: ReadonlyMap<string, string>,
  found: Map<string, MemberRecord>,
): MemberRecord[] {
  const records: MemberRecord[] = [];
  const errors: FieldError[] = [];
  for (const value of values) {
    const record = found.get(value);
    if (record) records.push(record);
    else
      errors.push({ path: paths.get(value) ?? 'value', message: message('unknownMember', { kind: kind.reference.spec.name, by, value }) });
  }
  if (errors.length > 0) throw errorOfFields('UnknownReference', errors);
  return records;
}

function requireSameCompany(
  kind: MemberKind,
  route: RouteSummary,
  records: readonly MemberRecord[],
  pathOf: (record: MemberRecord) => string,
): void {
  const errors = records
    .filter((record) => record.company !== route.company)
    .map((record) => ({
      path: pathOf(record),
      message: message('memberOfOtherCompany', {
        kind: kind.title,
        key: record.key,
        company: record.company ?? '',
        routeCompany: route.company,
      }),
    }));
  if (errors.length > 0) throw validationError(errors);
}

async function checkCustom(ctx: ApiContext, custom: CustomValues): Promise<CustomValues> {
  if (Object.keys(custom).length === 0) return {};
  const definitions = await loadCustomDefinitions(ctx.db, ctx.scope, 'routes', ctx.group?.overlay);
  const { values, errors } = validateCustomValues(custom, definitions, 'update');
  if (errors.length > 0) throw validationError(errors.map((error) => ({ ...error, path: `customAttributes.${error.path}` })));
  return values;
}

export async function handleMembershipChange(ctx: ApiContext, kind: MemberKind, action: MembershipAction, by: MembershipBy) {
  const body = parseMembershipBody(await readJsonBody(ctx.request), by);
  const custom = await checkCustom(ctx, body.custom);
  const target = {
    routeKey: ctx.params.routeKey ?? '',
    companyKey: ctx.url.searchParams.get('companyKey'),
    kind,
    action,
    by,
    values: body.values,
  };
  // One round trip: the reads that decide the answer and the writes, conditioned on the same checks (membership-batch.ts),
  // committed by the request's unit of work.
  const unit = openRequestUnit(ctx);
  const {
    candidates,
    records: found,
    touched,
  } = await writeUnderRules(
    () => commitAlone(unit, (batch) => batch.stage(stageMembershipChange(target, custom))),
    async () => undefined,
    ['value'],
  );
  const route = pickMembershipRoute(candidates, target.routeKey, target.companyKey);
  const records = requireRecords(
    kind,
    by,
    body.values,
    body.paths,
    new Map(found.map((row) => [by === 'id' ? row.id : row.key, toMemberRecord(row)])),
  );
  if (action === 'add' && kind.byCompany) {
    requireSameCompany(kind, route, records, (record) => body.paths.get(by === 'id' ? record.id : record.key) ?? 'value');
  }
  // Not touched: nothing to change (adding a member twice or removing a non-member changes nothing, not even the
  // version), or a concurrent identical request made the change first: the batch is one transaction, so the route
  // as the batch read it has the version after that change.
  const version = touched[0]?.version ?? route.version;
  return emptyResponse(200, { etag: etagOf(version) });
}
