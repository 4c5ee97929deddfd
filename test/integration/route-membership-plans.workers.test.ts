/**
 * EXPLAIN QUERY PLAN on D1 of the membership batch (issue 16): the route is found through an index on its routeKey
 * (no scan of the company index), the records named by their key or id, and the existing-member check through the
 * member table's primary key (route_id, key), never the member-key index; no table is scanned and nothing sorted.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { equipmentMembers, locationMembers } from '../../src/services/routes/members';
import type { MemberKind } from '../../src/services/routes/members';
import type { MembershipAction } from '../../src/services/routes/membership-batch';
import type { MembershipBy } from '../../src/services/routes/membership-body';
import { stageMembershipChange } from '../../src/services/routes/membership-write';
import { bindPlannedStatement } from '../../src/tenant/unit-of-work';
import { openUnreachableSession } from '../helpers/tenant-db';

interface PlanRow {
  detail: string;
}

const scope = { tenantKey: 't', orgKey: 'o' };
const stamp = { on: '2026-01-01T00:00:00.000Z', by: 'tester' };

/** The plan of each statement of the batch, one string per statement. */
async function explainBatch(
  kind: MemberKind,
  action: MembershipAction,
  by: MembershipBy,
  companyKey: string | null,
  custom: Record<string, unknown> = {},
): Promise<string[]> {
  const values = by === 'key' ? ['L1', 'L2', 'L3'] : ['6f1c2a8e-0000-4000-8000-000000000001', '6f1c2a8e-0000-4000-8000-000000000002'];
  const target = { routeKey: 'R1', companyKey, kind, action, by, values };
  // The statements the unit of work commits, its event included: without custom attribute values the compiled batch
  // (placeholders filled per request), with them one built for the request. Planning reads nothing.
  const context = openUnreachableSession(scope, stamp);
  const queries = stageMembershipChange(target, custom)
    .plan(context)
    .statements.map((planned) => bindPlannedStatement(context, planned));
  const plans: string[] = [];
  for (const { sql, params } of queries) {
    const result = await env.TENANT_DB_1.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<PlanRow>();
    plans.push(result.results.map((row) => row.detail).join(' | '));
  }
  return plans;
}

const CASES = (['add', 'remove'] as const).flatMap((action) =>
  (['key', 'id'] as const).flatMap((by) =>
    [null, 'C1'].flatMap((companyKey) =>
      [locationMembers, equipmentMembers].map(
        (kind) => [`${kind.field} ${action} by ${by}${companyKey ? ' with companyKey' : ''}`, kind, action, by, companyKey] as const,
      ),
    ),
  ),
);

describe('the membership batch reads by index only', () => {
  it.each(CASES)('%s', async (_name, kind, action, by, companyKey) => {
    const plans = await explainBatch(kind, action, by, companyKey);
    const all = plans.join(' || ');
    // Every table access is a SEARCH through an index (json_each is the request's own list).
    expect(all).not.toMatch(/SCAN (routes|ref_\w+|route_\w+)/);
    expect(all).not.toContain('TEMP B-TREE');
    // The route: by routeKey (alone) or by the natural key (company, routeKey); never the company index.
    expect(all).toContain(companyKey === null ? 'routes_route_key_idx' : 'routes_key_uq');
    expect(all).not.toContain('routes_company_idx');
    // The records named: by key (the kind's unique key) or by id (its primary key).
    expect(all).toContain(by === 'key' ? `${kind.reference.spec.table}_key_uq` : `sqlite_autoindex_${kind.reference.spec.table}_1`);
    // Membership: the member table's primary key (route_id, key), never the index on the member key alone.
    expect(all).toContain(`sqlite_autoindex_${tableName(kind)}_1`);
    expect(all).not.toContain(`${tableName(kind)}_${kind.table.memberKey.name}_idx`);
  });

  it('a change with custom attributes has the same plan shape', async () => {
    const all = (await explainBatch(locationMembers, 'add', 'key', null, { note: 'x' })).join(' || ');
    expect(all).not.toMatch(/SCAN (routes|ref_\w+|route_\w+)/);
    expect(all).toContain('routes_route_key_idx');
  });
});

function tableName(kind: MemberKind): string {
  return kind === locationMembers ? 'route_locations' : 'route_equipment_items';
}
