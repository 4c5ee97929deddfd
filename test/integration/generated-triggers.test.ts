/**
 * The migrated tenant database holds exactly the triggers (and text index tables) the generator makes from the
 * descriptions (src/resources/triggers/), as the generator writes them; the only other triggers are the residency
 * guard's (migration 0003) and the atomic groups' assertions (migration 0015). `npm run triggers:check` checks the migration files themselves, byte for byte.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { TRIGGER_DESCRIPTIONS } from '../../src/resources/catalogue';
import { generateTriggerSchema } from '../../src/resources/triggers/schema';
import { listRestoredTables } from '../../src/tenant/backup/tables';
import { TENANT_TABLES } from '../../src/tenant-tables';

interface MasterRow {
  type: string;
  name: string;
  sql: string;
}

const OBJECTS = generateTriggerSchema(TRIGGER_DESCRIPTIONS);

async function listSchema(): Promise<MasterRow[]> {
  const database = env.TENANT_DB_1 as D1Database;
  const result = await database.prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'table')").all<MasterRow>();
  return result.results;
}

describe('generated triggers', () => {
  it('makes the rule, count, text-search and history triggers of today', () => {
    const triggers = OBJECTS.filter((object) => object.type === 'trigger');
    expect(triggers.filter((object) => object.sql.includes("RAISE(ABORT, 'rule:"))).toHaveLength(34);
    expect(triggers.filter((object) => object.name.includes('_count_'))).toHaveLength(6);
    expect(triggers.filter((object) => object.name.includes('_text_'))).toHaveLength(9);
    // Three per restored table (insert, update, delete): every tenant table but the history and the change feed's.
    const restored = listRestoredTables(TENANT_TABLES);
    expect(triggers.filter((object) => object.name.includes('_history_'))).toHaveLength(3 * restored.length);
    expect(triggers).toHaveLength(49 + 3 * restored.length);
  });

  it.each(OBJECTS.map((object) => [object.name, object] as const))('%s is in the database as generated', async (name, object) => {
    const row = (await listSchema()).find((candidate) => candidate.name === name);
    expect(row?.type).toBe(object.type);
    expect(row?.sql).toBe(object.sql.replace(/;$/, ''));
  });

  it('leaves only the residency guard and the atomic group assertion triggers to hand-written migrations', async () => {
    const generated = new Set(OBJECTS.map((object) => object.name));
    const others = (await listSchema()).filter((row) => row.type === 'trigger' && !generated.has(row.name)).map((row) => row.name);
    expect(others.sort()).toEqual([
      'batch_assertion_failed',
      'batch_assertion_trial_end',
      'tenant_write_guard_absent',
      'tenant_write_guard_moving',
    ]);
  });
});
