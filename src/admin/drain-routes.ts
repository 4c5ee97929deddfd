/**
 * `POST /admin/databases/{binding}/drain`: moves every tenant/org off one tenant database with the online moves
 * (src/tenant/placement/mover.ts), each to the database that holds the fewest tenant/orgs among the others. It starts
 * up to DRAIN_BATCH moves and answers 202 with them and how many tenant/orgs remain; the moves go on in their
 * coordinators. Call it again until `remaining` is 0 (GET /admin/placements?database={binding} lists who is left).
 * A drain closes the database to new placements (the placement rule skips it) until `POST .../open`.
 */
import * as v from 'valibot';
import { ApiError, validationError } from '../errors/api-error';
import type { OperatorContext } from '../http/context';
import { jsonResponse } from '../http/responses';
import type { OperatorRoute } from '../http/route';
import { message } from '../messages/catalogue';
import { INTEGER } from '../openapi/values';
import { DatabaseAnswer } from './answers';

const DRAIN_BATCH = 20;

const DrainAnswer = v.strictObject({
  database: v.string(),
  moving: v.array(v.strictObject({ tenantKey: v.string(), orgKey: v.string(), database: v.string() })),
  remaining: INTEGER,
});

/** The least loaded open database, counting the moves this drain starts (`loads` holds the open ones only). */
function chooseTarget(loads: Map<string, number>): string {
  const [name] = [...loads].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [''];
  loads.set(name, (loads.get(name) ?? 0) + 1);
  return name;
}

/** The binding named in the path, if it is a tenant database (400 naming `binding` otherwise). */
function readBinding(ctx: OperatorContext): string {
  const database = ctx.params.binding ?? '';
  const { databases } = ctx.platform.placements;
  if (!databases.includes(database))
    throw validationError([
      { path: 'binding', message: message('notTenantDatabase', { field: 'binding', choices: databases.join(', ') }) },
    ]);
  return database;
}

async function drainDatabase(ctx: OperatorContext) {
  const database = readBinding(ctx);
  const { placements } = ctx.platform;
  const others = (await placements.listDatabases()).filter((entry) => entry.database !== database && entry.closedOn === null);
  if (others.length === 0) throw new ApiError('Conflict', `${database} is the only open tenant database: there is nowhere to move to.`);
  // Closed first: no new tenant/org is placed here while (and after) its tenant/orgs move away.
  await placements.closeDatabase(database, ctx.platform.now());
  const loads = new Map(others.map((entry) => [entry.database, entry.placements]));
  const page = await placements.list({ top: 1000, skip: 0, database });
  const moving = page.items
    .filter((placement) => placement.move === null)
    .slice(0, DRAIN_BATCH)
    .map((placement) => ({ tenantKey: placement.tenantKey, orgKey: placement.orgKey, database: chooseTarget(loads) }));
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

/** Opens a drained database to new placements again; answers its state (listDatabases names every binding). */
async function openDatabase(ctx: OperatorContext) {
  const database = readBinding(ctx);
  await ctx.platform.placements.closeDatabase(database, null);
  const view = (await ctx.platform.placements.listDatabases()).find((entry) => entry.database === database);
  if (!view) throw new Error(`${database} is missing from the tenant databases it was checked against.`);
  return jsonResponse(DatabaseAnswer, view);
}

export const drainRoutes: readonly OperatorRoute[] = [
  {
    method: 'POST',
    path: '/admin/databases/:binding/drain',
    summary: 'Moves every tenant/org off one tenant database (online moves, up to 20 started per call); answers 202',
    handle: drainDatabase,
  },
  {
    method: 'POST',
    path: '/admin/databases/:binding/open',
    summary: 'Opens a drained tenant database to new tenant/orgs again (a drain closes it); answers 200 with its state',
    handle: openDatabase,
  },
];
