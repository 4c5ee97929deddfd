/**
 * Compiled statements (src/tenant/compiled.ts): their parameters fill exactly as drizzle's `fillPlaceholders` does (each
 * value through its column's encoder), and their rows map back as drizzle's select does (each column's decoder).
 */
import { and, eq, fillPlaceholders, sql } from 'drizzle-orm';
import { integer, QueryBuilder, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { compileStatement, planPlaceholders } from '../../src/tenant/compiled';

const things = sqliteTable('things', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  active: integer('is_active', { mode: 'boolean' }).notNull(),
  meta: text('meta', { mode: 'json' }),
  at: integer('at', { mode: 'timestamp_ms' }),
});

const fields = {
  id: things.id,
  name: things.name,
  active: things.active,
  meta: things.meta,
  at: things.at,
  label: sql<string>`upper(name)`,
};

function buildQuery(constant = true) {
  return new QueryBuilder()
    .select(fields)
    .from(things)
    .where(
      and(
        eq(things.id, sql.placeholder('id')),
        eq(things.active, sql.placeholder('active')),
        sql`${things.meta} = ${sql.param(sql.placeholder('meta'), things.meta)}`,
        constant ? eq(things.name, 'fixed') : undefined,
      ),
    );
}

describe('compiled statements', () => {
  it('fill placeholders as drizzle does: values, encoded values and constants', () => {
    const { params } = buildQuery().toSQL();
    const values = { id: 'a1', active: true, meta: { tags: ['x'] } };
    expect(planPlaceholders(params)(values)).toEqual(fillPlaceholders(params, values));
    expect(planPlaceholders(params)(values)).toEqual(['a1', true, '{"tags":["x"]}', 'fixed']);
  });

  it('refuses a run without a value for a placeholder', () => {
    const { params } = buildQuery().toSQL();
    expect(() => planPlaceholders(params)({ id: 'a1', active: true })).toThrow('No value for placeholder "meta"');
  });

  it('refuse to compile a statement that binds anything but placeholders (it would be kept for later requests)', () => {
    expect(() => compileStatement(buildQuery(), fields)).toThrow(/parameter 4 of .* is a bound value \("fixed"\)/);
    expect(() => compileStatement(new QueryBuilder().select(fields).from(things).where(eq(things.id, 'a1')), fields)).toThrow(
      'binds placeholders only',
    );
    expect(() => compileStatement(new QueryBuilder().select(fields).from(things).limit(1), fields)).toThrow('binds placeholders only');
    expect(compileStatement(buildQuery(false), fields).params).toHaveLength(3);
  });

  it('map rows through each column decoder; SQL fields and NULLs as they come', () => {
    const statement = compileStatement(buildQuery(false), fields);
    const row = statement.mapRow(['a1', 'Name', 1, '{"tags":["x"]}', 1767225600000, 'NAME']);
    expect(row).toEqual({ id: 'a1', name: 'Name', active: true, meta: { tags: ['x'] }, at: new Date(1767225600000), label: 'NAME' });
    expect(statement.mapRow(['a2', 'N', 0, null, null, 'N'])).toEqual({
      id: 'a2',
      name: 'N',
      active: false,
      meta: null,
      at: null,
      label: 'N',
    });
    expect(statement.sql).toBe(buildQuery(false).toSQL().sql);
  });
});
