/**
 * One membership change as one D1 batch (one round trip, one transaction): the reads that decide the answer (the
 * route, the records named) and the writes, each write conditioned in SQL on exactly what the answer checks (one
 * route, every record found, members of the route's company), so the writes and the answer always agree, whatever
 * runs concurrently. The keys travel as one JSON parameter (`json_each`), however many there are.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Placeholder, SQL } from 'drizzle-orm';
import { requireColumn, scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { compileStatement, compileWrite, textPlaceholder } from '../../tenant/compiled';
import { defineCompiledFamily } from '../../tenant/compiled-families';
import { compileEvent } from '../../tenant/unit-of-work';
import { buildCustomValueUpdate } from '../../resources/entities/custom-attributes';
import type { CustomValues } from '../../resources/entities/custom-attributes';
import { eventConstants, EVENT_PLACEHOLDERS, updatedEventOf } from '../../resources/entities/events';
import type { AuditStamp } from '../../resources/entities/store';
import { ROUTE_SUMMARY } from './find-route';
import { MEMBER_KINDS } from './members';
import type { MemberKind } from './members';
import type { MembershipBy } from './membership-body';
import { routes, routeStore } from './table';

export type MembershipAction = 'add' | 'remove';

/** What a membership request names: the route (routeKey, and companyKey when sent) and the member values. */
export interface MembershipTarget {
  readonly routeKey: string;
  readonly companyKey: string | null;
  readonly kind: MemberKind;
  readonly action: MembershipAction;
  readonly by: MembershipBy;
  /** Distinct keys or lowercase ids. */
  readonly values: readonly string[];
}

/**
 * What the batch binds: a request's values, or (compiled, src/tenant/compiled.ts) placeholders standing for them. The
 * builders put each term into SQL as is.
 */
interface MembershipTerms {
  readonly scope: TenantScope;
  readonly routeKey: string;
  /** Null: the request sent no companyKey (a shape of its own, never a placeholder). */
  readonly companyKey: string | null;
  /** The values as one JSON array (json_each). */
  readonly valuesJson: string;
  readonly count: number | string;
  readonly stamp: AuditStamp;
  /** The event's names: the member field (`locations`, ...) and `added` or `removed`. */
  readonly field: string;
  readonly change: string;
  /** How many routes [0] reads (`AMBIGUOUS_LIMIT`). */
  readonly limit: number | Placeholder;
  /** Compiled: the event's resource and change type are placeholders too. */
  readonly compiled?: boolean;
}

/** What decides the batch's SQL text (apart from custom attribute values, which are never compiled). */
interface MembershipShape {
  readonly kind: MemberKind;
  readonly action: MembershipAction;
  readonly by: MembershipBy;
}

/** How many routes the membership operations read to report an ambiguous routeKey. */
const AMBIGUOUS_LIMIT = 20;

function routeCondition(terms: MembershipTerms): SQL | undefined {
  return and(
    scopeCondition(routes, terms.scope),
    eq(routes.routeKey, terms.routeKey),
    ...(terms.companyKey === null ? [] : [eq(routes.company, terms.companyKey)]),
  );
}

/** The SQL pieces every statement of the batch shares. */
function buildConditions(terms: MembershipTerms, target: MembershipShape) {
  const { kind, by } = target;
  const { scope } = terms;
  const reference = kind.reference;
  const records = reference.table;
  const listed = sql`${reference.common[by]} IN (SELECT value FROM json_each(${terms.valuesJson}))`;
  // By id, the primary key finds each record; the scope is then a filter (unary +: not an index choice, else SQLite
  // may walk the tenant/org's records through another index starting with tenant_key, org_key).
  const named =
    by === 'id'
      ? and(listed, sql`+${reference.common.tenantKey} = ${scope.tenantKey}`, sql`+${reference.common.orgKey} = ${scope.orgKey}`)
      : and(eq(reference.common.tenantKey, scope.tenantKey), eq(reference.common.orgKey, scope.orgKey), listed);
  const routeId = sql`(SELECT ${routes.id} FROM ${routes} WHERE ${routeCondition(terms)} LIMIT 1)`;
  // With companyKey the route is unique (the natural key); without, exactly one route may have the routeKey.
  const oneRoute =
    terms.companyKey === null ? sql`(SELECT count(*) FROM (SELECT 1 FROM ${routes} WHERE ${routeCondition(terms)} LIMIT 2)) = 1` : sql`1`;
  const allFound = sql`(SELECT count(*) FROM ${records} WHERE ${named}) = ${terms.count}`;
  const company = kind.byCompany ? requireColumn(reference.columns, reference.spec.table, 'company') : undefined;
  const sameCompany =
    target.action === 'add' && company
      ? sql`NOT EXISTS (SELECT 1 FROM ${records} WHERE ${named} AND ${company} IS NOT (SELECT ${routes.company} FROM ${routes} WHERE ${routes.id} = ${routeId}))`
      : sql`1`;
  const table = kind.table;
  // The primary key (route_id, member key) answers whether a record is a member.
  const member = sql`SELECT 1 FROM ${table} WHERE ${table.ownerId} = ${routeId} AND ${table.memberKey} = ${reference.common.key}`;
  const needsChange =
    target.action === 'add'
      ? sql`EXISTS (SELECT 1 FROM ${records} WHERE ${named} AND NOT EXISTS (${member}))`
      : sql`EXISTS (SELECT 1 FROM ${records} WHERE ${named} AND EXISTS (${member}))`;
  // The keys the change applies to, as the route's `updated` event lists them (evaluated before the change; in index
  // order, no sort).
  const changed = sql`json((SELECT json_group_array(k) FROM (SELECT ${reference.common.key} AS k FROM ${records} WHERE ${named}
    AND ${target.action === 'add' ? sql`NOT ` : sql``}EXISTS (${member}))))`;
  return { named, routeId, allowed: sql`${oneRoute} AND ${allFound} AND ${sameCompany}`, needsChange, changed };
}

/** The records named, as statement [1] answers them. */
export function buildRecordFields(kind: MemberKind) {
  const reference = kind.reference;
  const company = reference.columns.company;
  return {
    id: reference.common.id,
    key: reference.common.key,
    description: requireColumn(reference.columns, reference.spec.table, 'description'),
    company: company ? sql<string | null>`${company}` : sql<string | null>`NULL`,
  };
}

/** What statement [3] answers: the route's version, when it bumped it. */
export const TOUCHED = { version: routes.version };

/**
 * The batch: [0] the routes with the routeKey (at most 20), [1] the records named, [2] the route's `updated` event (its
 * description: the unit of work builds it) and [3] its version bump (and custom attribute values, merged by
 * `json_set`), only while something changes, [4] the member inserts or deletes.
 * Not bumped, the route's version is the one statement [0] read (same transaction).
 */
function buildStatements(db: Database, terms: MembershipTerms, target: MembershipShape, custom: CustomValues) {
  const { kind } = target;
  const { scope, stamp } = terms;
  const reference = kind.reference;
  const { named, routeId, allowed, needsChange, changed } = buildConditions(terms, target);
  const table = kind.table;
  const hasCustom = Object.keys(custom).length > 0;
  const candidates = db.select(ROUTE_SUMMARY).from(routes).where(routeCondition(terms)).limit(terms.limit);
  const records = db.select(buildRecordFields(kind)).from(reference.table).where(named);
  const condition = and(eq(routes.id, routeId), allowed, hasCustom ? undefined : needsChange);
  // The route's `updated` event, written exactly when the touch is (same condition, same transaction, before it).
  const changes = sql`json_object('members', json_object(${terms.field}, json_object(${terms.change}, ${changed}))${
    hasCustom ? sql`, 'attributes', json_array('customAttributes')` : sql``
  })`;
  const event = updatedEventOf(routeStore, condition, { changes, ...(terms.compiled ? { constants: EVENT_PLACEHOLDERS } : {}) });
  const touch = db
    .update(routes)
    .set({
      ...(hasCustom ? { customAttributes: buildCustomValueUpdate(routes.customAttributes, custom) } : {}),
      version: sql`${routes.version} + 1`,
      modifiedOn: stamp.on,
      modifiedBy: stamp.by,
    })
    .where(condition)
    .returning(TOUCHED);
  const change =
    target.action === 'add'
      ? db
          .insert(table)
          .select(
            db
              .select({
                ownerId: sql<string>`${routeId}`.as('route_id'),
                tenantKey: sql<string>`${scope.tenantKey}`.as('tenant_key'),
                orgKey: sql<string>`${scope.orgKey}`.as('org_key'),
                memberKey: sql<string>`${reference.common.key}`.as('member_key'),
              })
              .from(reference.table)
              .where(and(named, sql`${routeId} IS NOT NULL`, allowed)),
          )
          .onConflictDoNothing()
      : db
          .delete(table)
          .where(
            and(
              eq(table.ownerId, routeId),
              sql`${table.memberKey} IN (SELECT ${reference.common.key} FROM ${reference.table} WHERE ${named})`,
              allowed,
            ),
          );
  return [candidates, records, event, touch, change] as const;
}

function termsOf(scope: TenantScope, target: MembershipTarget, stamp: AuditStamp): MembershipTerms {
  return {
    scope,
    routeKey: target.routeKey,
    companyKey: target.companyKey,
    valuesJson: JSON.stringify(target.values),
    count: target.values.length,
    stamp,
    ...constantsOf(target),
  };
}

/** The terms of a batch that its shape decides (the same for every request of the shape). */
function constantsOf(target: MembershipShape) {
  return { field: target.kind.field, change: target.action === 'add' ? 'added' : 'removed', limit: AMBIGUOUS_LIMIT };
}

/** The batch as drizzle statements (built on every run, its event described): requests that set custom attribute values. */
export function buildMembershipBatch(db: Database, scope: TenantScope, target: MembershipTarget, custom: CustomValues, stamp: AuditStamp) {
  return buildStatements(db, termsOf(scope, target, stamp), target, custom);
}

/** The batch of one shape with placeholders for every term (`tenantKey`, `orgKey`, `routeKey`, ...), compiled. */
function compileMembershipBatch(db: Database, target: MembershipShape, withCompany: boolean) {
  const terms: MembershipTerms = {
    scope: { tenantKey: textPlaceholder('tenantKey'), orgKey: textPlaceholder('orgKey') },
    routeKey: textPlaceholder('routeKey'),
    companyKey: withCompany ? textPlaceholder('companyKey') : null,
    valuesJson: textPlaceholder('valuesJson'),
    count: textPlaceholder('count'),
    stamp: { on: textPlaceholder('on'), by: textPlaceholder('by') },
    field: textPlaceholder('field'),
    change: textPlaceholder('change'),
    limit: sql.placeholder('limit'),
    compiled: true,
  };
  const [candidates, records, event, touch, change] = buildStatements(db, terms, target, {});
  return [
    compileStatement(candidates, ROUTE_SUMMARY),
    compileStatement(records, buildRecordFields(target.kind)),
    compileEvent(db, event),
    compileStatement(touch, TOUCHED),
    compileWrite(change),
  ] as const;
}

/** The values of a compiled batch's placeholders for one request. */
export function fillMembershipBatch(scope: TenantScope, target: MembershipTarget, stamp: AuditStamp): Record<string, unknown> {
  const terms = termsOf(scope, target, stamp);
  return {
    tenantKey: scope.tenantKey,
    orgKey: scope.orgKey,
    routeKey: terms.routeKey,
    companyKey: terms.companyKey,
    valuesJson: terms.valuesJson,
    count: terms.count,
    on: stamp.on,
    by: stamp.by,
    field: terms.field,
    change: terms.change,
    limit: terms.limit,
    ...eventConstants(routeStore, 'updated'),
  };
}

/** What decides a compiled batch's SQL text, besides its member kind. */
interface CompiledShape {
  readonly action: MembershipAction;
  readonly by: MembershipBy;
  readonly withCompany: boolean;
}

const SHAPES: readonly CompiledShape[] = (['add', 'remove'] as const).flatMap((action) =>
  (['key', 'id'] as const).flatMap((by) => [true, false].map((withCompany) => ({ action, by, withCompany }))),
);

/** The membership batches, by member kind and shape, compiled once per isolate. */
export const membershipBatches = defineCompiledFamily({
  name: 'route membership batches',
  shapes: () => SHAPES,
  keyOf: (shape: CompiledShape) => `${shape.action}:${shape.by}:${shape.withCompany}`,
  compile: (db: Database, kind: MemberKind, shape: CompiledShape) => compileMembershipBatch(db, { kind, ...shape }, shape.withCompany),
  statementsOf: (batch: ReturnType<typeof compileMembershipBatch>) => batch,
});
MEMBER_KINDS.forEach((kind) => membershipBatches.declare(kind));
