/**
 * Every column that holds a reference key is covered by the database rules of migration 0006: a trigger on its table
 * refuses an insert naming a key that does not exist, and a trigger on the referenced kind's table refuses the delete
 * of a key in use. A reference field added to an entity description, a kind or a service without its triggers fails
 * here (the race tests in cross-row-rules.test.ts show what the triggers hold).
 */
import { env } from 'cloudflare:test';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { findReferenceKind } from '../../src/resources/reference/kinds';
import { listKindReferenceUsers } from '../../src/resources/reference/usage';
import { serviceReferenceUsers } from '../../src/services/registry';

interface TriggerRow {
  name: string;
  tbl_name: string;
  sql: string;
}

const USERS = [...serviceReferenceUsers, ...listKindReferenceUsers()].flatMap((user) => {
  const kind = findReferenceKind(user.kind);
  // Standard lists (cultures, currencies) are read-only: nothing deletes them.
  if (!kind || kind.storage === 'standard') return [];
  return [[`${user.name} -> ${user.kind}`, getTableConfig(user.table as SQLiteTable).name, user.column.name, kind.table] as const];
});

async function listTriggers(): Promise<TriggerRow[]> {
  const database = env.TENANT_DB_1 as D1Database;
  const result = await database.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'").all<TriggerRow>();
  return result.results;
}

describe('the database enforces every reference', () => {
  it('knows the reference users', () => {
    expect(USERS.length).toBeGreaterThanOrEqual(17);
  });

  it.each(USERS)('%s', async (_name, table, column, kindTable) => {
    const triggers = await listTriggers();
    const inserts = triggers.filter((trigger) => trigger.tbl_name === table && /BEFORE INSERT/i.test(trigger.sql));
    expect(
      inserts.some((trigger) => trigger.sql.includes(`NEW.\`${column}\``) && trigger.sql.includes(`\`${kindTable}\``)),
      `an insert trigger on ${table} checking ${column} against ${kindTable}`,
    ).toBe(true);
    const deletes = triggers.filter((trigger) => trigger.tbl_name === kindTable && /BEFORE DELETE/i.test(trigger.sql));
    expect(
      deletes.some((trigger) => trigger.sql.includes(`\`${table}\``) && trigger.sql.includes(`.\`${column}\``)),
      `a delete trigger on ${kindTable} looking at ${table}.${column}`,
    ).toBe(true);
  });
});
