/** The indicators' coordinator command: recalculation, run inside the tenant/org's Durable Object. */
import type { CommandHandlers } from '../../coordinator/commands';
import type { TenantScope } from '../../db/client';
import type { Platform } from '../../runtime/platform';
import { recalculateIndicators, RECALCULATION_ACTOR } from './recalculate';
import type { RecalculationOutcome, RecalculationRequest } from './recalculate';

declare module '../../coordinator/commands' {
  interface CommandCatalog {
    'indicators.recalculate': { payload: RecalculationRequest; result: RecalculationOutcome };
  }
}

/** Durable Object storage key: how many recalculations actually ran (joined calls count once). */
export const RECALCULATION_COUNT_KEY = 'indicators:recalculations';

/** Tenant/orgs whose recalculation is running in this isolate: a second one at once is a bug, refused loudly. */
const running = new Set<string>();

/**
 * Sends a recalculation to the tenant/org's coordinator. Calls with the same request that arrive while one
 * is queued and not yet started join it (same answer); otherwise they queue behind the running one.
 */
export function sendRecalculation(platform: Platform, scope: TenantScope, request: RecalculationRequest): Promise<RecalculationOutcome> {
  return platform.coordinator(scope).send({
    type: 'indicators.recalculate',
    tenantKey: scope.tenantKey,
    orgKey: scope.orgKey,
    configurationKey: request.configurationKey,
    onlyChanged: request.onlyChanged,
    joinKey: `indicators.recalculate:${request.onlyChanged ? 'changed' : 'all'}:${request.configurationKey ?? '*'}`,
  });
}

export const indicatorCommands: Pick<CommandHandlers, 'indicators.recalculate'> = {
  'indicators.recalculate': async ({ tenant, now, state }, command) => {
    const scopeKey = `${command.tenantKey}/${command.orgKey}`;
    if (running.has(scopeKey)) throw new Error(`A recalculation for ${scopeKey} is already running.`);
    running.add(scopeKey);
    try {
      const request: RecalculationRequest = { configurationKey: command.configurationKey, onlyChanged: command.onlyChanged };
      // The command's session: its tenant/org, opened once, stamped with the calculation's time.
      const unit = tenant.withStamp({ on: now().toISOString(), by: RECALCULATION_ACTOR });
      const outcome = await recalculateIndicators(unit, request);
      if (outcome.status === 'done')
        await state.put(RECALCULATION_COUNT_KEY, ((await state.get<number>(RECALCULATION_COUNT_KEY)) ?? 0) + 1);
      return outcome;
    } finally {
      running.delete(scopeKey);
    }
  },
};
