import { describe, expect, it } from 'vitest';
import { advanceSession, formatBookmark, parseBookmark } from '../../src/tenant/placement/bookmark';
import type { ReadSession } from '../../src/tenant/placement/bookmark';
import { isReadable, readRefusal } from '../../src/tenant/placement/guard';
import { TENANT_TABLES } from '../../src/tenant-tables';

const D1 = (n: number) => `00000000-${n.toString(16).padStart(8, '0')}-00000000-${'0'.repeat(32)}`;

describe('x-d1-bookmark', () => {
  it('parses <database>:<bookmark>, tells absent from malformed, and formats it back', () => {
    expect(parseBookmark(null)).toBeUndefined();
    expect(parseBookmark('  ')).toBeUndefined();
    expect(parseBookmark(`TENANT_DB_2:${D1(5)}`)).toEqual({ database: 'TENANT_DB_2', value: D1(5) });
    for (const bad of ['TENANT_DB_2', `tenant_db_2:${D1(5)}`, 'TENANT_DB_2:', 'TENANT_DB_2:a b', `TENANT_DB_2:${'x'.repeat(200)}`]) {
      expect(parseBookmark(bad), bad).toBeNull();
    }
    expect(formatBookmark({ database: 'TENANT_DB_1', value: D1(3) })).toBe(`TENANT_DB_1:${D1(3)}`);
  });

  it('keeps the later bookmark of a database, and the last one seen across databases', () => {
    const session: ReadSession = { start: 'replica', bookmark: null };
    advanceSession(session, { database: 'TENANT_DB_1', value: D1(7) });
    advanceSession(session, { database: 'TENANT_DB_1', value: D1(4) });
    expect(session.bookmark?.value).toBe(D1(7));
    advanceSession(session, null);
    expect(session.bookmark?.value).toBe(D1(7));
    advanceSession(session, { database: 'TENANT_DB_2', value: D1(1) });
    expect(session.bookmark).toEqual({ database: 'TENANT_DB_2', value: D1(1) });
  });
});

describe('residency guard', () => {
  it('recognizes the refusals of the write guard and the readable states', () => {
    expect(readRefusal(new Error('D1_ERROR: tenant_moving: SQLITE_CONSTRAINT'))).toBe('moving');
    expect(readRefusal(new Error('D1_ERROR', { cause: new Error('tenant_not_resident') }))).toBe('not_resident');
    expect(readRefusal(new Error('UNIQUE constraint failed'))).toBeNull();
    expect(['active', 'moving', 'moved', 'incoming', undefined].map(isReadable)).toEqual([true, true, false, false, false]);
  });
});

describe('tenant tables', () => {
  it('covers every tenant/org table, parents before children, the insertion sequence of measurements left out', () => {
    const names = TENANT_TABLES.map((table) => table.name);
    expect(names).not.toContain('tenant_residency');
    expect(names).not.toContain('ref_currencies');
    expect(names).toEqual(expect.arrayContaining(['email_templates', 'routes', 'route_tools', 'exchange_rate_lines', 'kpi_measurements']));
    expect(names.indexOf('routes')).toBeLessThan(names.indexOf('route_tools'));
    expect(names.indexOf('exchange_rates_documents')).toBeLessThan(names.indexOf('exchange_rate_lines'));
    const measurements = TENANT_TABLES.find((table) => table.name === 'kpi_measurements');
    expect(measurements?.sequence).toBe('id');
    expect(measurements?.columns).not.toContain('id');
    expect(TENANT_TABLES.find((table) => table.name === 'email_templates')?.columns).toContain('id');
  });
});
