/**
 * The row ids a restore into another tenant/org maps (src/tenant/backup/row-ids.ts): every column named like an id of
 * every restored table is either mapped or declared as no row id, every foreign key is mapped, and a target's mapping
 * is a bijection on GUIDs that keeps their version and variant and never maps an id to itself.
 */
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/schema';
import { deriveIdMapping, listIdColumns, NOT_ROW_IDS } from '../../src/tenant/backup/row-ids';
import { listRestoredTables } from '../../src/tenant/backup/tables';
import { TENANT_TABLES } from '../../src/tenant-tables';

const HEX = '0123456789abcdef';

describe('the id columns of the restored tables', () => {
  it('maps every column named like an id, or declares it as no row id', () => {
    const unclassified = listRestoredTables(TENANT_TABLES).flatMap((table) => {
      const mapped = listIdColumns(table);
      return table.columns
        .filter((column) => /(^id$|_id$|_ids$)/.test(column))
        .filter((column) => !mapped.has(column) && !NOT_ROW_IDS.has(`${table.name}.${column}`))
        .map((column) => `${table.name}.${column}`);
    });
    expect(unclassified).toEqual([]);
  });

  it('maps every foreign key', () => {
    const restored = new Map(listRestoredTables(TENANT_TABLES).map((table) => [table.name, table]));
    const unmapped = Object.values(schema).flatMap((value) => {
      if (!is(value, SQLiteTable)) return [];
      const config = getTableConfig(value);
      const table = restored.get(config.name);
      if (!table) return [];
      return config.foreignKeys
        .flatMap((key) => key.reference().columns.map((column) => column.name))
        .filter((column) => listIdColumns(table).get(column) !== 'id')
        .map((column) => `${config.name}.${column}`);
    });
    expect(unmapped).toEqual([]);
  });
});

describe("a target's id mapping", () => {
  it('is a permutation of the hex digits per position, keeps the version digit and the variant bits, and moves the first', async () => {
    for (const target of [
      { tenantKey: 'demo', orgKey: 'demo-copy' },
      { tenantKey: 'demo', orgKey: 'demo-copy2' },
    ]) {
      const mapping = await deriveIdMapping(target);
      expect(mapping).toHaveLength(32 * 16);
      const segments = Array.from({ length: 32 }, (_, index) => mapping.slice(index * 16, index * 16 + 16));
      for (const segment of segments) expect([...segment].sort().join('')).toBe(HEX);
      expect(segments[12]).toBe(HEX);
      for (const [index, digit] of [...HEX].entries()) {
        expect(segments[16]?.[index] && Math.floor(parseInt(segments[16][index] ?? '0', 16) / 4)).toBe(Math.floor(parseInt(digit, 16) / 4));
        expect(segments[0]?.[index]).not.toBe(digit);
      }
    }
    expect(await deriveIdMapping({ tenantKey: 'demo', orgKey: 'demo-copy' })).not.toBe(
      await deriveIdMapping({ tenantKey: 'demo', orgKey: 'demo-copy2' }),
    );
  });
});
