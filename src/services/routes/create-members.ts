/**
 * A route created with its members (deep insert): `locations` and `equipmentItems` in the create body, as keys or as the
 * `{id, key, description}` items reads answer, checked as the membership operations (`/{routeKey}/locations/add`, ...)
 * check their lists and written in the create's batch (one transaction); the database's rules (a member exists and
 * belongs to the route's company) refuse the batch otherwise, and the checks below word the answer.
 */
import * as v from 'valibot';
import type { TenantScope } from '../../db/client';
import type { WriteStatement } from '../../db/writes';
import { errorOfFields } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import { findReferences } from '../../resources/reference/store';
import type { TenantSession } from '../../tenant/session';
import { collectFieldErrors } from '../../resources/entities/import-template';
import { isPlainObject } from '../../validation/values';
import { buildMemberInserts } from './member-writes';
import { equipmentMembers, locationMembers } from './members';
import type { MemberKind } from './members';
import { parseMembershipBody } from './membership-body';

/** The member lists a create body may carry, by property (the names route reads answer them under). */
export const CREATE_MEMBER_KINDS: readonly MemberKind[] = [locationMembers, equipmentMembers];

/** A member list of a create body, as the OpenAPI document shows it. */
export const CREATE_MEMBERS_SCHEMA = v.optional(
  v.nullable(
    v.pipe(
      v.array(
        v.union([
          v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
          v.looseObject({ key: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) }),
        ]),
      ),
      v.maxLength(1000),
      v.description('Members (keys, or {key} objects as reads answer them) of the route’s company, added with the route'),
    ),
  ),
);

interface MemberKeys {
  readonly keys: string[];
  /** Where each key was given (`locations[2]`). */
  readonly paths: ReadonlyMap<string, string>;
  readonly errors: FieldError[];
}

const parsed = new WeakMap<object, Map<MemberKind, MemberKeys>>();

/** A member list -> distinct keys; every bad item named as the membership operations name it (`locations[2]`). */
function parseMemberList(property: string, raw: unknown): MemberKeys {
  if (raw === undefined || raw === null) return { keys: [], paths: new Map(), errors: [] };
  const errors: FieldError[] = [];
  const items = Array.isArray(raw)
    ? raw.map((item: unknown, index) => {
        if (!isPlainObject(item)) return item;
        if (typeof item.key === 'string') return item.key;
        errors.push({ path: `${property}[${index}]`, message: message('memberItem', { field: `${property}[${index}]` }) });
        return '';
      })
    : raw;
  const rename = (path: string) => path.replace(/^value/, property);
  let body: ReturnType<typeof parseMembershipBody> | undefined;
  const problems = collectFieldErrors(() => {
    body = parseMembershipBody(items, 'key');
  });
  errors.push(
    ...problems.map((error) => ({ ...error, path: rename(error.path) })).filter((error) => !errors.some((e) => e.path === error.path)),
  );
  const paths = new Map([...(body?.paths ?? new Map<string, string>())].map(([key, path]) => [key, rename(path)]));
  return { keys: body?.values ?? [], paths, errors };
}

/** The member lists of a create body's extra properties, parsed once per body. */
function parseCreateMembers(extra: Record<string, unknown>): Map<MemberKind, MemberKeys> {
  let lists = parsed.get(extra);
  if (!lists) {
    lists = new Map(CREATE_MEMBER_KINDS.map((kind) => [kind, parseMemberList(kind.field, extra[kind.field])]));
    parsed.set(extra, lists);
  }
  return lists;
}

/** Every problem of the member lists themselves. */
export function validateCreateMembers(extra: Record<string, unknown>): FieldError[] {
  return [...parseCreateMembers(extra).values()].flatMap((list) => list.errors);
}

/** The member rows of the new route, in the create's batch. */
export function buildCreateMemberInserts(scope: TenantScope, routeId: string, extra: Record<string, unknown>): WriteStatement[] {
  return [...parseCreateMembers(extra)].flatMap(([kind, list]) => buildMemberInserts(scope, kind, routeId, list.keys));
}

/**
 * The membership operations' checks, read: every key names a record of its kind (else 400 UnknownReference, each
 * unknown key named) of the route's company (else 400 naming each member of another company).
 */
export async function checkCreateMembers(tenant: TenantSession, company: unknown, extra: Record<string, unknown>): Promise<FieldError[]> {
  const lists = [...parseCreateMembers(extra)];
  const uses = lists.flatMap(([kind, list]) =>
    list.keys.map((key) => ({ kind: kind.reference.spec.name, key, path: list.paths.get(key) ?? kind.field })),
  );
  if (uses.length === 0) return [];
  const found = await findReferences(tenant, uses, tenant.group?.overlay);
  const unknown: FieldError[] = [];
  const others: FieldError[] = [];
  for (const [kind, list] of lists) {
    for (const key of list.keys) {
      const path = list.paths.get(key) ?? kind.field;
      const record = found.get(kind.reference.spec.name)?.get(key);
      if (!record) unknown.push({ path, message: message('unknownMember', { kind: kind.reference.spec.name, by: 'key', value: key }) });
      else if (record.company !== company) {
        const memberCompany = typeof record.company === 'string' ? record.company : '';
        const routeCompany = typeof company === 'string' ? company : '';
        others.push({ path, message: message('memberOfOtherCompany', { kind: kind.title, key, company: memberCompany, routeCompany }) });
      }
    }
  }
  if (unknown.length > 0) throw errorOfFields('UnknownReference', unknown);
  return others;
}
