import type { Coordinator } from '../coordinator/commands';
import type { GroupMember } from '../tenant/atomic-group';

/**
 * A member of an atomic group writes only through its unit of work (which commits into the group's batch): a
 * coordinator command that changes state would commit alone, so until the group committed only reads
 * (`generation.read`) are sent; after it, its write reactions (`reactAfterWrite`) send theirs.
 */
export function guardGroupCommands(coordinator: Coordinator, group: GroupMember | undefined): Coordinator {
  if (!group) return coordinator;
  return {
    send: (command) =>
      command.type === 'generation.read' || group.isCommitted() ? coordinator.send(command) : Promise.reject(group.refuse()),
  };
}
