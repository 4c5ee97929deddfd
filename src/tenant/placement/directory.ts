/**
 * The directory's queries (tables in directory-schema.ts): find, place, list and switch placements. Plain D1
 * statements over the `DIRECTORY` binding; the residency row that a placement creates lives in the tenant database.
 */
import type { RoundTripMeter } from '../d1/meter';
import type { TenantScope } from '../../db/client';
import type { DatabaseSet } from '../d1/databases';

export interface Placement extends TenantScope {
  /** Binding name of the tenant database that holds the tenant/org. */
  readonly database: string;
  /** 1 at placement, +1 at every move. */
  readonly epoch: number;
  readonly placedOn: string;
  readonly movedOn: string | null;
  /** While a move runs: its target database and start. */
  readonly moveTarget: string | null;
  readonly moveStartedOn: string | null;
}

interface PlacementRow {
  tenant_key: string;
  org_key: string;
  database: string;
  epoch: number;
  placed_on: string;
  moved_on: string | null;
  move_target: string | null;
  move_started_on: string | null;
}

const COLUMNS = 'tenant_key, org_key, database, epoch, placed_on, moved_on, move_target, move_started_on';
const SELECT_ONE = `SELECT ${COLUMNS} FROM tenant_placements WHERE tenant_key = ? AND org_key = ?`;

function toPlacement(row: PlacementRow): Placement {
  return {
    tenantKey: row.tenant_key,
    orgKey: row.org_key,
    database: row.database,
    epoch: row.epoch,
    placedOn: row.placed_on,
    movedOn: row.moved_on,
    moveTarget: row.move_target,
    moveStartedOn: row.move_started_on,
  };
}

/** One more D1 round trip on the request's (or command's) meter, when it has one. */
function countRoundTrip(meter: RoundTripMeter | undefined): void {
  if (meter) meter.roundTrips += 1;
}

/** The tenant/org's placement, read on the directory's primary; null when it has never been written to. */
export async function findPlacement(directory: D1Database, scope: TenantScope, meter?: RoundTripMeter): Promise<Placement | null> {
  countRoundTrip(meter);
  const row = await directory.prepare(SELECT_ONE).bind(scope.tenantKey, scope.orgKey).first<PlacementRow>();
  return row ? toPlacement(row) : null;
}

/**
 * The placement rule: the open tenant database holding the fewest tenant/orgs (`database_loads`, kept by triggers);
 * ties go to the first binding name in sort order. A closed (drained) database gets none, unless every one is closed.
 */
async function chooseDatabase(databases: DatabaseSet, meter?: RoundTripMeter): Promise<string> {
  countRoundTrip(meter);
  const loads = await readDatabaseLoads(databases.directory);
  const open = databases.names.filter((name) => !loads.get(name)?.closedOn);
  const candidates = open.length > 0 ? open : databases.names;
  let chosen = candidates[0] ?? '';
  for (const name of candidates) if ((loads.get(name)?.placements ?? 0) < (loads.get(chosen)?.placements ?? 0)) chosen = name;
  return chosen;
}

/** Marks the tenant/org as held by `tenantDb` unless the database already has a residency row for it (any state). */
export async function ensureResidency(tenantDb: D1Database, scope: TenantScope, now: Date, meter?: RoundTripMeter): Promise<void> {
  countRoundTrip(meter);
  await tenantDb
    .prepare("INSERT INTO tenant_residency (tenant_key, org_key, state, changed_on) VALUES (?, ?, 'active', ?) ON CONFLICT DO NOTHING")
    .bind(scope.tenantKey, scope.orgKey, now.toISOString())
    .run();
}

/**
 * Places a tenant/org on its first write. Two isolates placing the same one at once agree: the first insert wins
 * (`ON CONFLICT DO NOTHING`) and both read the row back in the same batch. The residency row follows; a writer that
 * finds the directory entry before it exists creates it too (ensureResidency is idempotent).
 */
export async function placeTenant(databases: DatabaseSet, scope: TenantScope, now: Date, meter?: RoundTripMeter): Promise<Placement> {
  const chosen = await chooseDatabase(databases, meter);
  const { directory } = databases;
  countRoundTrip(meter);
  const [, read] = await directory.batch<PlacementRow>([
    directory
      .prepare('INSERT INTO tenant_placements (tenant_key, org_key, database, placed_on) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
      .bind(scope.tenantKey, scope.orgKey, chosen, now.toISOString()),
    directory.prepare(SELECT_ONE).bind(scope.tenantKey, scope.orgKey),
  ]);
  const row = read?.results[0];
  if (!row) throw new Error(`The placement of ${scope.tenantKey}/${scope.orgKey} could not be read back.`);
  const placement = toPlacement(row);
  const tenantDb = databases.tenants.get(placement.database);
  if (!tenantDb) throw new Error(`${scope.tenantKey}/${scope.orgKey} is placed on ${placement.database}, which is not bound.`);
  await ensureResidency(tenantDb, scope, now, meter);
  return placement;
}

interface PlacementPage {
  readonly items: readonly Placement[];
  /** True when more placements follow this page. */
  readonly more: boolean;
}

/** Placements in (tenantKey, orgKey) order, optionally of one database only. */
export async function listPlacements(
  directory: D1Database,
  options: { top: number; skip: number; database?: string },
): Promise<PlacementPage> {
  const where = options.database === undefined ? '' : ' WHERE database = ?';
  const parameters = options.database === undefined ? [] : [options.database];
  const { results } = await directory
    .prepare(`SELECT ${COLUMNS} FROM tenant_placements${where} ORDER BY tenant_key, org_key LIMIT ? OFFSET ?`)
    .bind(...parameters, options.top + 1, options.skip)
    .all<PlacementRow>();
  return { items: results.slice(0, options.top).map(toPlacement), more: results.length > options.top };
}

/** The org keys of the tenant's placed tenant/orgs, at most `limit` (the primary key's order). */
export async function listTenantOrgs(directory: D1Database, tenantKey: string, limit: number): Promise<string[]> {
  const { results } = await directory
    .prepare('SELECT org_key FROM tenant_placements WHERE tenant_key = ? ORDER BY org_key LIMIT ?')
    .bind(tenantKey, limit)
    .all<{ org_key: string }>();
  return results.map((row) => row.org_key);
}

/** A database's load: how many tenant/orgs it holds, and since when it is closed to new ones (a drain), if it is. */
interface DatabaseLoad {
  readonly placements: number;
  readonly closedOn: string | null;
}

/** Loads per database name (databases never placed on nor closed are absent). */
export async function readDatabaseLoads(directory: D1Database): Promise<Map<string, DatabaseLoad>> {
  const { results } = await directory
    .prepare('SELECT database, placements, closed_on FROM database_loads')
    .all<{ database: string; placements: number; closed_on: string | null }>();
  return new Map(results.map((row) => [row.database, { placements: row.placements, closedOn: row.closed_on }]));
}

/** Closes a database to new placements (`closedOn`, kept if it already is) or opens it again (null). */
export async function setDatabaseClosed(directory: D1Database, database: string, closedOn: string | null): Promise<void> {
  await directory
    .prepare(
      'INSERT INTO database_loads (database, placements, closed_on) VALUES (?1, 0, ?2) ON CONFLICT (database) DO UPDATE SET closed_on = CASE WHEN ?2 IS NULL THEN NULL ELSE coalesce(closed_on, ?2) END',
    )
    .bind(database, closedOn)
    .run();
}

/** Records that a move to `target` started (shown by the operator API while it runs). */
export async function markMoveStarted(directory: D1Database, scope: TenantScope, target: string, now: Date): Promise<void> {
  await directory
    .prepare('UPDATE tenant_placements SET move_target = ?, move_started_on = ? WHERE tenant_key = ? AND org_key = ?')
    .bind(target, now.toISOString(), scope.tenantKey, scope.orgKey)
    .run();
}

/** Clears a move that was rolled back (the placement keeps its database). */
export async function clearMove(directory: D1Database, scope: TenantScope): Promise<void> {
  await directory
    .prepare('UPDATE tenant_placements SET move_target = NULL, move_started_on = NULL WHERE tenant_key = ? AND org_key = ?')
    .bind(scope.tenantKey, scope.orgKey)
    .run();
}

/** Points the tenant/org at `target` (epoch + 1, movedOn = now) if it still is on `source`; answers the new placement. */
export async function switchPlacement(
  directory: D1Database,
  scope: TenantScope,
  source: string,
  target: string,
  now: Date,
): Promise<Placement> {
  const [, read] = await directory.batch<PlacementRow>([
    directory
      .prepare(
        'UPDATE tenant_placements SET database = ?, epoch = epoch + 1, moved_on = ?, move_target = NULL, move_started_on = NULL WHERE tenant_key = ? AND org_key = ? AND database = ?',
      )
      .bind(target, now.toISOString(), scope.tenantKey, scope.orgKey, source),
    directory.prepare(SELECT_ONE).bind(scope.tenantKey, scope.orgKey),
  ]);
  const row = read?.results[0];
  if (!row || row.database !== target) throw new Error(`The directory did not switch ${scope.tenantKey}/${scope.orgKey} to ${target}.`);
  return toPlacement(row);
}
