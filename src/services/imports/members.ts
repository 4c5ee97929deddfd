/**
 * Member columns of a template (routes: `locations`, `equipmentItems`, `tools`): `|`-separated keys kept out of the
 * create body, each checked as the service's API checks it (the key names a record of the kind, of the route's
 * company), and written to the record's member tables in the chunk's batch.
 */
import type { FieldError } from '../../errors/api-error';
import type { ImportTemplate, MemberPair } from '../../resources/entities/import-template';
import type { FoundReferences, ReferenceUse } from '../../resources/reference/store';
import type { TenantReader } from '../../tenant/session';
import type { MemberChange } from './member-stage';

/** Member keys by column (distinct, in file order). */
export type MemberKeys = Readonly<Record<string, readonly string[]>>;

/** The body without the template's member columns, and the keys of those columns. */
export function splitMembers(
  template: ImportTemplate,
  body: Readonly<Record<string, unknown>>,
): { body: Record<string, unknown>; members: MemberKeys } {
  const columns = new Set((template.members ?? []).map((member) => member.column));
  const rest: Record<string, unknown> = {};
  const members: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!columns.has(name)) rest[name] = value;
    else if (Array.isArray(value)) members[name] = [...new Set(value.map((item) => String(item)))];
  }
  return { body: rest, members };
}

/** The reference uses of the member keys (one read finds them with the record's own references). */
export function collectMemberUses(template: ImportTemplate, members: MemberKeys): ReferenceUse[] {
  return (template.members ?? []).flatMap((member) =>
    (members[member.column] ?? []).map((key) => ({ kind: member.kind, key, path: member.column })),
  );
}

/** Every member key's problem (unknown, of another company), as the service's API words it. */
export function checkMemberKeys(
  template: ImportTemplate,
  members: MemberKeys,
  found: FoundReferences,
  values: Readonly<Record<string, unknown>>,
): FieldError[] {
  return (template.members ?? []).flatMap((member) =>
    (members[member.column] ?? []).flatMap((key) => {
      const problem = member.checkMember(key, found.get(member.kind)?.get(key), values);
      return problem ? [problem] : [];
    }),
  );
}

/** The member rows of new records, by column. */
export function collectMemberPairs(
  template: ImportTemplate,
  records: readonly { readonly id: string; readonly members?: MemberKeys }[],
): { column: string; pairs: MemberPair[] }[] {
  return (template.members ?? []).flatMap((member) => {
    const pairs = records.flatMap((record) => (record.members?.[member.column] ?? []).map((key): MemberPair => [record.id, key]));
    return pairs.length > 0 ? [{ column: member.column, pairs }] : [];
  });
}

/** The members stored records hold, for the member columns rows name (`<ownerId> <key>` per member). */
export async function listHeldMembers(
  template: ImportTemplate,
  unit: TenantReader,
  rows: readonly { readonly ownerId: string; readonly members: MemberKeys }[],
): Promise<Set<string>> {
  const held = new Set<string>();
  for (const member of template.members ?? []) {
    const owners = rows.filter((row) => (row.members[member.column] ?? []).length > 0).map((row) => row.ownerId);
    if (owners.length === 0) continue;
    for (const [ownerId, key] of await member.list(unit, owners)) held.add(heldKey(member.column, ownerId, key));
  }
  return held;
}

export function heldKey(column: string, ownerId: string, key: string): string {
  return JSON.stringify([column, ownerId, key]);
}

/** The keys a row adds to its stored record: those it does not hold yet, by column. */
export function collectMemberAdds(members: MemberKeys, ownerId: string, held: ReadonlySet<string>): MemberChange[] {
  return Object.entries(members).flatMap(([column, keys]) => {
    const added = keys.filter((key) => !held.has(heldKey(column, ownerId, key)));
    return added.length > 0 ? [{ column, keys: added }] : [];
  });
}
