/** The indicators' coordinator command: recalculation, run inside the tenant/org's Durable Object. */
import type { CommandHandler } from '../../coordinator/commands';
import { readDatabase } from '../../db/client';
import type { CoordinatorCommand, Platform } from '../../platform/types';
import { recalculateIndicators } from './recalculate';
import type { RecalculationOutcome, RecalculationRequest } from './recalculate';

export const RECALCULATE_COMMAND = 'indicators.recalculate';
/** Durable Object storage key: how many recalculations actually ran (joined calls count once). */
export const RECALCULATION_COUNT_KEY = 'indicators:recalculations';

/** Tenant/orgs whose recalculation is running in this isolate: a second one at once is a bug, refused loudly. */
const running = new Set<string>();

/**
 * Sends a recalculation to the tenant/org's coordinator. Calls with the same request that arrive while one
 * is queued and not yet started join it (same answer); otherwise they queue behind the running one.
 */
export function sendRecalculation(
  platform: Platform,
  tenantKey: string,
  orgKey: string,
  request: RecalculationRequest,
): Promise<RecalculationOutcome> {
  const command: CoordinatorCommand = {
    type: RECALCULATE_COMMAND,
    tenantKey,
    orgKey,
    configurationKey: request.configurationKey,
    onlyChanged: request.onlyChanged,
    joinKey: `${RECALCULATE_COMMAND}:${request.onlyChanged ? 'changed' : 'all'}:${request.configurationKey ?? '*'}`,
  };
  return platform.coordinator(tenantKey, orgKey).send<RecalculationOutcome>(command);
}

const recalculate: CommandHandler = async (platform, command, state) => {
  const scopeKey = `${command.tenantKey}/${command.orgKey}`;
  if (running.has(scopeKey)) throw new Error(`A recalculation for ${scopeKey} is already running.`);
  running.add(scopeKey);
  try {
    const request: RecalculationRequest = {
      configurationKey: typeof command.configurationKey === 'string' ? command.configurationKey : null,
      onlyChanged: command.onlyChanged === true,
    };
    const outcome = await recalculateIndicators(readDatabase(platform.db), command, request, platform.now());
    if (outcome.status === 'done') await state.put(RECALCULATION_COUNT_KEY, ((await state.get<number>(RECALCULATION_COUNT_KEY)) ?? 0) + 1);
    return outcome;
  } finally {
    running.delete(scopeKey);
  }
};

export const indicatorCommandHandlers: Readonly<Record<string, CommandHandler>> = { [RECALCULATE_COMMAND]: recalculate };
