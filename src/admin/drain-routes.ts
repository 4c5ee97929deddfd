/**
 * `POST /admin/databases/{binding}/drain`: moves every tenant/org off one tenant database with the online moves
 * (src/tenant/placement/mover.ts), each to the database that holds the fewest tenant/orgs among the others. It starts
 * up to DRAIN_BATCH moves and answers 202 with them and how many tenant/orgs remain; the moves go on in their
 * coordinators. Call it again until `remaining` is 0 (GET /admin/placements?database={binding} lists who is left).
 */
import * as v from 'valibot';
import { ApiError, validationError } from '../errors/api-error';
import type { OperatorContext } from '../http/context';
import { jsonResponse } from '../http/responses';
import type { OperatorRoute } from '../http/route';
import { message } from '../messages/catalogue';
import { INTEGER } from '../openapi/values';

const DRAIN_BATCH = 20;

const DrainAnswer = v.strictObject({
  database: v.string(),
  moving: v.array(v.strictObject({ tenantKey: v.string(), orgKey: v.string(), database: v.string() })),
  remaining: INTEGER,
});

/** The least loaded database but `drained`, counting the moves this drain starts. */
function chooseTarget(loads: Map<string, number>, drained: string): string {
  const [name] = [...loads].filter(([database]) => database !== drained).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [''];
  loads.set(name, (loads.get(name) ?? 0) + 1);
  return name;
}

async function drainDatabase(ctx: OperatorContext) {
  const database = ctx.params.binding ?? '';
  const { placements } = ctx.platform;
  if (!placements.databases.includes(database))
    throw validationError([
      { path: 'binding', message: message('notTenantDatabase', { field: 'binding', choices: placements.databases.join(', ') }) },
    ]);
  if (placements.databases.length < 2)
    throw new ApiError('Conflict', `${database} is the only tenant database: there is nowhere to move to.`);
  const loads = new Map((await placements.listDatabases()).map((entry) => [entry.database, entry.placements]));
  const page = await placements.list({ top: 1000, skip: 0, database });
  const moving = page.items
    .filter((placement) => placement.move === null)
    .slice(0, DRAIN_BATCH)
    .map((placement) => ({ tenantKey: placement.tenantKey, orgKey: placement.orgKey, database: chooseTarget(loads, database) }));
  for (const move of moving) {
    const scope = { tenantKey: move.tenantKey, orgKey: move.orgKey };
    ctx.platform.waitUntil(
      placements.move(scope, move.database).catch((error: unknown) => {
        console.error(JSON.stringify({ level: 'error', message: 'drain move failed', ...move, error: String(error) }));
      }),
    );
  }
  const remaining = page.items.length + (page.more ? 1 : 0);
  return jsonResponse(DrainAnswer, { database, moving, remaining }, { status: 202 });
}

export const drainRoutes: readonly OperatorRoute[] = [
  {
    method: 'POST',
    path: '/admin/databases/:binding/drain',
    summary: 'Moves every tenant/org off one tenant database (online moves, up to 20 started per call); answers 202',
    handle: drainDatabase,
  },
];
