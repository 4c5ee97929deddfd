/**
 * Route members as an atomic group of `$batch` sees them (src/tenant/atomic-group.ts). A membership change of the group
 * (membership-predict.ts) records each member it adds as `{routeId, memberKey}` in the group's overlay, under the
 * member table's name and `<routeId>:<memberKey>`, and each one it removes as null: reads of the group's routes,
 * and the in-use check of a reference delete, see the members the group leaves.
 */
import { getTableName } from 'drizzle-orm';
import type { ApiContext } from '../../http/context';
import { findReferences } from '../../resources/reference/store';
import type { GroupOverlay } from '../../tenant/atomic-group';
import { equipmentMembers, locationMembers } from './members';
import type { MemberItem, MemberKind } from './members';
import { routeStore } from './table';

/** A route member's id in the group's overlay. */
export function memberId(routeId: string, memberKey: string): string {
  return `${routeId}:${memberKey}`;
}

/** A member kind's table in the group's overlay. */
export function memberTableName(kind: MemberKind): string {
  return getTableName(kind.table);
}

/** Whether the group's writes leave `memberKey` a member of the route (`stored`: it is a member as stored). */
export function isMemberInGroup(overlay: GroupOverlay, kind: MemberKind, routeId: string, memberKey: string, stored: boolean): boolean {
  const image = overlay.read(memberTableName(kind), memberId(routeId, memberKey));
  return image === undefined ? stored : image !== null;
}

/** The members the group added to the route (keys). */
function listAddedMembers(overlay: GroupOverlay, kind: MemberKind, routeId: string): string[] {
  return [...overlay.list(memberTableName(kind)).values()].flatMap((image) =>
    image !== null && image.routeId === routeId ? [String(image.memberKey)] : [],
  );
}

/**
 * The routes (`company/routeKey`) the group's writes leave using `memberKey` as a member of the kind: the stored
 * members (`stored`: route id -> label) the group did not remove, and those it added.
 */
export function listGroupMemberUses(
  overlay: GroupOverlay,
  kind: MemberKind,
  memberKey: string,
  stored: ReadonlyMap<string, string>,
): string[] {
  const labels: string[] = [];
  for (const [routeId, label] of stored) {
    if (overlay.read(routeStore.spec.table, routeId) === null) continue;
    if (isMemberInGroup(overlay, kind, routeId, memberKey, true)) labels.push(label);
  }
  for (const image of overlay.list(memberTableName(kind)).values()) {
    if (image === null || image.memberKey !== memberKey || stored.has(String(image.routeId))) continue;
    // A change that adds a member bumps its route: the group holds the route's after-image.
    const route = overlay.read(routeStore.spec.table, String(image.routeId));
    if (route !== null) labels.push(route ? `${String(route.company)}/${String(route.routeKey)}` : '');
  }
  return labels;
}

type Image = Readonly<Record<string, unknown>>;

/**
 * Routes read as stored (`stored`, each with its `id`) as the group leaves them: a deleted one dropped, a changed one
 * replaced by its after-image, and the group's routes that `wanted` names added.
 */
export function applyGroupToRouteRows(overlay: GroupOverlay, stored: readonly Image[], wanted: (route: Image) => boolean): Image[] {
  const seen = new Set(stored.map((row) => String(row.id)));
  const kept = stored.flatMap((row) => {
    const image = overlay.read(routeStore.spec.table, String(row.id));
    if (image === undefined) return [row];
    return image !== null && wanted(image) ? [image] : [];
  });
  const added = [...overlay.list(routeStore.spec.table)].flatMap(([id, image]) =>
    image !== null && !seen.has(id) && wanted(image) ? [image] : [],
  );
  return [...kept, ...added];
}

/**
 * The routes (their after-images, or stored rows) that have the members `keys` of the kind as the group leaves them:
 * `stored` (member key, route id and the route's company and routeKey) less what the group removed, with what it added.
 */
export function listGroupMemberRoutes(
  overlay: GroupOverlay,
  kind: MemberKind,
  keys: readonly string[],
  stored: readonly { readonly key: string; readonly routeId: string; readonly company: string; readonly routeKey: string }[],
): { key: string; route: Image }[] {
  const uses: { key: string; route: Image }[] = [];
  for (const row of stored) {
    const route = overlay.read(routeStore.spec.table, row.routeId);
    if (route === null || !isMemberInGroup(overlay, kind, row.routeId, row.key, true)) continue;
    uses.push({ key: row.key, route: route ?? row });
  }
  const seen = new Set(stored.map((row) => memberId(row.routeId, row.key)));
  for (const [id, image] of overlay.list(memberTableName(kind))) {
    if (image === null || seen.has(id) || !keys.includes(String(image.memberKey))) continue;
    const route = overlay.read(routeStore.spec.table, String(image.routeId));
    if (route) uses.push({ key: String(image.memberKey), route });
  }
  return uses;
}

type RouteMembers = Record<MemberKind['field'], MemberItem[]>;

/**
 * In an atomic group: the routes' locations and equipment items (read as stored, `members`) as the group's writes
 * leave them, their records as the group's reference writes leave them (one read, only when the group changed any).
 */
export async function applyGroupToMembers(ctx: ApiContext, members: ReadonlyMap<string, RouteMembers>): Promise<void> {
  const overlay = ctx.group?.overlay;
  if (!overlay) return;
  for (const kind of [locationMembers, equipmentMembers]) {
    const changed = overlay.list(memberTableName(kind)).size > 0 || overlay.list(kind.reference.spec.table).size > 0;
    if (!changed) continue;
    const keys = new Map<string, string[]>();
    for (const [routeId, own] of members) {
      const kept = own[kind.field].map((member) => member.key).filter((key) => isMemberInGroup(overlay, kind, routeId, key, true));
      keys.set(routeId, [...new Set([...kept, ...listAddedMembers(overlay, kind, routeId)])].sort());
    }
    const uses = [...new Set([...keys.values()].flat())].map((key) => ({ kind: kind.reference.spec.name, key, path: '' }));
    const found = (await findReferences(ctx.db, ctx.scope, uses, overlay)).get(kind.reference.spec.name);
    for (const [routeId, own] of members) {
      own[kind.field] = (keys.get(routeId) ?? []).flatMap((key) => {
        const record = found?.get(key);
        return record ? [{ id: record.id, key: record.key, description: String(record.description ?? '') }] : [];
      });
    }
  }
}
