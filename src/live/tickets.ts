/**
 * Stream tickets are used once: the tenant/org's object (the only place a ticket of that tenant/org is used) records
 * each one as it is used, under `live:ticket:<until>:<id>` (`until`: the ticket's expiry, epoch seconds, 12 digits)
 * until it expires, and drops the expired ones (the first keys, in order) as new ones are used.
 */
import type { CoordinatorState } from '../coordinator/commands';
import { ApiError } from '../errors/api-error';

const PREFIX = 'live:ticket:';
/** Expired entries dropped per use: more than one, so the storage holds about a minute of tickets. */
const SWEEP = 8;

const keyOf = (until: number, id: string) => `${PREFIX}${String(until).padStart(12, '0')}:${id}`;

/** Records the ticket's use; 401 when it was used before. */
export async function spendTicket(state: CoordinatorState, ticket: { id: string; until: number }, nowSeconds: number): Promise<void> {
  const key = keyOf(ticket.until, ticket.id);
  if ((await state.get<true>(key)) !== undefined) {
    const detail = 'The stream ticket was used already: ask for another.';
    throw new ApiError('Unauthorized', detail, {
      headers: { 'www-authenticate': `Bearer realm="erp-edge-api", error="invalid_token", error_description="${detail}"` },
    });
  }
  await state.put(key, true);
  const expired = await state.list<true>(PREFIX, keyOf(nowSeconds, ''), SWEEP);
  for (const old of expired.keys()) await state.delete(old);
}
