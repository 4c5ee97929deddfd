/** Sends import commands to the tenant/org's coordinator, retrying when the Durable Object was reset. */
import type { CommandEnvelope, CommandResult, CoordinatorCommand } from '../../coordinator/commands';
import type { ApiContext } from '../../http/context';
import type { ImportCommandFields } from './commands';

const MAX_ATTEMPTS = 3;

/**
 * True for the errors a Durable Object stub marks `retryable` (the object was reset or the connection lost)
 * and not `overloaded` (retrying would only add load).
 */
export function isRetryableCoordinatorError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const flags = error as { retryable?: unknown; overloaded?: unknown };
  return flags.retryable === true && flags.overloaded !== true;
}

/** The tenant/org and the fields every import command carries, for this request. */
export function buildCommandBase(ctx: ApiContext): Omit<CommandEnvelope, 'type'> & ImportCommandFields {
  return {
    tenantKey: ctx.scope.tenantKey,
    orgKey: ctx.scope.orgKey,
    commandId: crypto.randomUUID(),
    requestId: ctx.requestId,
    by: ctx.principal.subject,
  };
}

/**
 * Sends one command and waits for its answer. Import commands are idempotent by `commandId`, so a retry
 * after a reset between the D1 write and the answer returns the recorded outcome instead of writing again.
 */
export async function sendImportCommand<C extends CoordinatorCommand>(ctx: ApiContext, command: C): Promise<CommandResult<C['type']>> {
  const coordinator = ctx.platform.coordinator(ctx.scope);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await coordinator.send(command);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableCoordinatorError(error)) throw error;
    }
  }
}
