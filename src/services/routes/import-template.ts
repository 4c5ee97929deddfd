/**
 * The routes import template: a route's create body (its fields, `tools`) plus its members, `locations` and
 * `equipmentItems`, as `|`-separated keys. A row is checked as POST /routes checks its body and as the membership
 * operations (`/{routeKey}/locations/add`, ...) check their lists of keys; the members are written to the route's
 * member tables (a key must name a record of the kind; locations and equipment items of the route's company), as
 * the membership operations and the create's tools write them.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FieldError } from '../../errors/api-error';
import { checkEntityCreate, collectFieldErrors, deriveEntityTemplate } from '../../resources/entities/import-template';
import type { ImportMemberColumn, MemberPair } from '../../resources/entities/import-template';
import { message } from '../../messages/catalogue';
import { judgeBrandModel } from './brand-model';
import { routeSpec } from './entity';
import { equipmentMembers, locationMembers, toolMembers } from './members';
import type { MemberKind } from './members';
import { parseMembershipBody } from './membership-body';
import { routeCreateOptions } from './rules';
import { routeStore } from './table';

const MEMBER_COLUMNS = ['locations', 'equipmentItems'] as const;

const checkCreate = checkEntityCreate(routeSpec, {
  ...(routeCreateOptions.extraProperties ? { extraProperties: routeCreateOptions.extraProperties } : {}),
  ...(routeCreateOptions.validateExtra ? { validateExtra: routeCreateOptions.validateExtra } : {}),
});

/** A member column's keys as the membership operation checks them (`value[2]` -> `locations[2]`). */
function checkMembers(column: string, keys: unknown): readonly FieldError[] {
  if (keys === undefined || keys === null) return [];
  return collectFieldErrors(() => parseMembershipBody(keys, 'key')).map((error) => ({
    ...error,
    path: error.path.replace(/^value/, column),
  }));
}

/** `[[routeId, key], ...]` as rows of `json_each`. */
const PAIR = { owner: sql.raw(`json_extract(value, '$[0]')`), key: sql.raw(`json_extract(value, '$[1]')`) };

/** A member kind as an import's member column: the membership operations' messages, inserts that leave held members. */
function defineMemberColumn(kind: MemberKind): ImportMemberColumn {
  const table = kind.table;
  const scoped = (scope: { tenantKey: string; orgKey: string }) =>
    and(eq(table.tenantKey, scope.tenantKey), eq(table.orgKey, scope.orgKey));
  const pairs = (list: readonly MemberPair[]) => JSON.stringify(list);
  return {
    column: kind.field,
    kind: kind.reference.spec.name,
    checkMember(key, member, row) {
      // The create's tools are reference uses (unknownReference); locations and equipment items as the membership operations say.
      if (!member && kind === toolMembers) return { path: kind.field, message: message('unknownReference', { kind: 'tools', key }) };
      if (!member)
        return { path: kind.field, message: message('unknownMember', { kind: kind.reference.spec.name, by: 'key', value: key }) };
      if (!kind.byCompany || member.company === row.company) return undefined;
      const company = typeof member.company === 'string' ? member.company : '';
      const routeCompany = typeof row.company === 'string' ? row.company : '';
      return { path: kind.field, message: message('memberOfOtherCompany', { kind: kind.title, key, company, routeCompany }) };
    },
    insert: (db, scope, list, onlyIf) =>
      db
        .insert(table)
        .select(
          sql`SELECT ${PAIR.owner}, ${scope.tenantKey}, ${scope.orgKey}, ${PAIR.key} FROM json_each(${pairs(list)}) WHERE ${onlyIf ?? sql`1`}`,
        )
        .onConflictDoNothing(),
    remove: (db, scope, list, onlyIf) =>
      db
        .delete(table)
        .where(
          and(
            scoped(scope),
            sql`(${table.ownerId}, ${table.memberKey}) IN (SELECT ${PAIR.owner}, ${PAIR.key} FROM json_each(${pairs(list)}))`,
            onlyIf,
          ),
        ),
    list: async (db, scope, ownerIds) => {
      const rows = await db
        .select({ routeId: table.ownerId, memberKey: table.memberKey })
        .from(table)
        .where(and(scoped(scope), inArray(table.ownerId, sql`(SELECT value FROM json_each(${JSON.stringify(ownerIds)}))`)));
      return rows.map((row): MemberPair => [row.routeId, row.memberKey]);
    },
  };
}

export const routesImportTemplate = deriveEntityTemplate(routeSpec, {
  extra: [
    { name: 'tools', required: false, cell: 'list' },
    ...MEMBER_COLUMNS.map((name) => ({ name, required: false, cell: 'list' as const })),
  ],
  check: (body) => {
    const create = Object.fromEntries(Object.entries(body).filter(([name]) => !(MEMBER_COLUMNS as readonly string[]).includes(name)));
    return [...checkCreate(create), ...MEMBER_COLUMNS.flatMap((column) => checkMembers(column, body[column]))];
  },
  store: routeStore,
  members: [toolMembers, locationMembers, equipmentMembers].map(defineMemberColumn),
  // As the create's validateCreate hook (routeSpec.hooks), on the brand model the chunk's reference check read.
  checkFound: (values, found) =>
    typeof values.brandModel === 'string'
      ? judgeBrandModel(values.brand, values.brandModel, found.get('brandModels')?.get(values.brandModel), 'brandModel')
      : [],
});
