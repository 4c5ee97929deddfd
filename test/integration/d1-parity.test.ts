/**
 * The D1 behaviour the application relies on, checked on the binding itself: real D1 in the Workers run,
 * the node:sqlite adapter (src/runtime/deno/d1.ts) in the Deno run. Both must answer the same.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

const INSERT_TOOL = 'INSERT INTO ref_tools (id, tenant_key, org_key, key, description) VALUES (?, ?, ?, ?, ?)';

describe('D1 binding', () => {
  it('runs a batch as one transaction: a failing statement leaves nothing behind', async () => {
    const first = env.TENANT_DB_1.prepare(INSERT_TOOL).bind('parity-1', 'parity', 'batch', 'T1', 'one');
    const duplicate = env.TENANT_DB_1.prepare(INSERT_TOOL).bind('parity-2', 'parity', 'batch', 'T1', 'again');
    await expect(env.TENANT_DB_1.batch([first, duplicate])).rejects.toThrow(/UNIQUE constraint failed/);
    const left = await env.TENANT_DB_1.prepare('SELECT count(*) AS n FROM ref_tools WHERE tenant_key = ? AND org_key = ?')
      .bind('parity', 'batch')
      .first<{ n: number }>();
    expect(left?.n).toBe(0);

    const results = await env.TENANT_DB_1.batch([
      first,
      env.TENANT_DB_1.prepare(INSERT_TOOL).bind('parity-3', 'parity', 'batch', 'T2', 'two'),
    ]);
    expect(results).toHaveLength(2);
    expect(results[0]?.meta.changes).toBe(1);
  });

  it('binds numbers as REAL and booleans as 1 or 0, answering whole numbers as numbers', async () => {
    const row = await env.TENANT_DB_1.prepare(
      'SELECT ? AS yes, typeof(?) AS kind, ? AS whole, typeof(?) AS wholeKind, ? AS half, ? AS empty',
    )
      .bind(true, false, 7, 7, 2.5, null)
      .first();
    expect(row).toEqual({ yes: 1, kind: 'real', whole: 7, wholeKind: 'real', half: 2.5, empty: null });
  });

  it('answers raw() as arrays, keeping columns of the same name, with the names on request', async () => {
    const statement = env.TENANT_DB_1.prepare('SELECT 1 AS a, 2 AS a, ? AS b').bind('x');
    expect(await statement.raw()).toEqual([[1, 2, 'x']]);
    expect(await statement.raw({ columnNames: true })).toEqual([
      ['a', 'a', 'b'],
      [1, 2, 'x'],
    ]);
  });

  it('answers first() with the row, one column of it, or null when there is no row', async () => {
    await env.TENANT_DB_1.prepare(INSERT_TOOL).bind('parity-4', 'parity', 'first', 'T1', 'first tool').run();
    const query = 'SELECT key, description FROM ref_tools WHERE tenant_key = ? AND org_key = ? AND key = ?';
    expect(await env.TENANT_DB_1.prepare(query).bind('parity', 'first', 'T1').first()).toEqual({ key: 'T1', description: 'first tool' });
    expect(await env.TENANT_DB_1.prepare(query).bind('parity', 'first', 'T1').first('description')).toBe('first tool');
    expect(await env.TENANT_DB_1.prepare(query).bind('parity', 'first', 'none').first()).toBeNull();
  });

  it('reports the rows a write changed, and answers RETURNING rows from run() and all()', async () => {
    await env.TENANT_DB_1.prepare(INSERT_TOOL).bind('parity-5', 'parity', 'meta', 'T1', 'a').run();
    await env.TENANT_DB_1.prepare(INSERT_TOOL).bind('parity-6', 'parity', 'meta', 'T2', 'b').run();
    const update = await env.TENANT_DB_1.prepare('UPDATE ref_tools SET description = ? WHERE tenant_key = ? AND org_key = ?')
      .bind('c', 'parity', 'meta')
      .run();
    expect(update.success).toBe(true);
    expect(update.meta.changes).toBe(2);
    const deleted = await env.TENANT_DB_1.prepare('DELETE FROM ref_tools WHERE tenant_key = ? AND org_key = ? RETURNING key')
      .bind('parity', 'meta')
      .all<{ key: string }>();
    expect(deleted.results.map((row) => row.key).sort()).toEqual(['T1', 'T2']);
  });

  it('refuses a statement with more than 100 bound parameters', async () => {
    const markers = Array.from({ length: 101 }, () => '?').join(', ');
    const values = Array.from({ length: 101 }, (_, index) => index);
    await expect(
      env.TENANT_DB_1.prepare(`SELECT ${markers}`)
        .bind(...values)
        .all(),
    ).rejects.toThrow(/too many SQL variables/);
    const hundred = Array.from({ length: 100 }, () => '?').join(', ');
    await expect(
      env.TENANT_DB_1.prepare(`SELECT ${hundred}`)
        .bind(...values.slice(0, 100))
        .raw(),
    ).resolves.toHaveLength(1);
  });
});
