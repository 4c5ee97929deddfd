/** The refusal of a `$batch` atomic group member's write that cannot be part of the group (src/tenant/atomic-group.ts). */
import { validationError } from '../../errors/api-error';
import type { ApiError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { BatchRequest } from './parse';

/** 400 naming the request where it is in the batch body (the group names its member by id and index). */
export function refuseInGroup(requests: readonly BatchRequest[], member: { readonly id: string; readonly index: number }): ApiError {
  const field = requests.find((request) => request.id === member.id)?.path ?? `requests[${member.index}]`;
  return validationError(
    [{ path: field, message: message('batchGroupOperation', { id: member.id, field }) }],
    `Request ${member.id} cannot be part of an atomic group yet: it writes outside the unit of work. Nothing of the group was written.`,
  );
}
