/** Sends import commands to the tenant/org's coordinator, retrying when the Durable Object was reset. */
import type { ApiContext } from '../../http/context';
import type { CoordinatorCommand } from '../../platform/types';

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

/** The fields every import command carries besides its type and payload. */
export interface ImportCommandFields {
  readonly tenantKey: string;
  readonly orgKey: string;
  /** Fresh per request: the idempotency key of the command. */
  readonly commandId: string;
  readonly requestId: string;
  readonly by: string;
}

export function buildCommandBase(ctx: ApiContext): ImportCommandFields {
  return {
    tenantKey: ctx.tenantKey,
    orgKey: ctx.orgKey,
    commandId: crypto.randomUUID(),
    requestId: ctx.requestId,
    by: ctx.principal.subject,
  };
}

/**
 * Sends one command and waits for its answer. Import commands are idempotent by `commandId`, so a retry
 * after a reset between the D1 write and the answer returns the recorded outcome instead of writing again.
 */
export async function sendImportCommand<T>(ctx: ApiContext, command: CoordinatorCommand): Promise<T> {
  const coordinator = ctx.platform.coordinator(ctx.tenantKey, ctx.orgKey);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await coordinator.send<T>(command);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableCoordinatorError(error)) throw error;
    }
  }
}
