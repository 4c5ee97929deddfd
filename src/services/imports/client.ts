/** Sends import commands to the tenant/org's coordinator, retrying when the Durable Object was reset. */
import type { CommandEnvelope, CommandResult, CoordinatorCommand } from '../../coordinator/commands';
import { callWithRetries, isRetryableCoordinatorError } from '../../coordinator/retry';
import type { ApiContext } from '../../http/context';
import type { ImportCommandFields } from './commands';

/** The tenant/org and the fields every import command carries, for this request. */
export function buildCommandBase(ctx: ApiContext): Omit<CommandEnvelope, 'type'> & ImportCommandFields {
  return {
    tenantKey: ctx.tenant.scope.tenantKey,
    orgKey: ctx.tenant.scope.orgKey,
    commandId: crypto.randomUUID(),
    requestId: ctx.requestId,
    by: ctx.principal.subject,
  };
}

/**
 * Sends one command and waits for its answer. Import commands are idempotent by `commandId`, so a retry
 * after a reset between the D1 write and the answer returns the recorded outcome instead of writing again.
 */
export function sendImportCommand<C extends CoordinatorCommand>(ctx: ApiContext, command: C): Promise<CommandResult<C['type']>> {
  const coordinator = ctx.platform.coordinator(ctx.tenant.scope);
  return callWithRetries(() => coordinator.send(command), isRetryableCoordinatorError);
}
