/** The generated history triggers (src/resources/triggers/history.ts): their shape, and D1's 32 arguments per function. */
import { describe, expect, it } from 'vitest';
import { renderHistoryBaseline, renderHistoryTriggers } from '../../src/resources/triggers/history';
import type { TenantTable } from '../../src/tenant/placement/tenant-tables';

const wide: TenantTable = {
  name: 'wide',
  columns: ['id', 'tenant_key', 'org_key', ...Array.from({ length: 40 }, (_, index) => `c${index}`)],
  sequence: null,
  key: ['id'],
};

/** The largest number of arguments any json_object/json_insert/json_array call of `sql` has. */
function countWidestCall(sql: string): number {
  let widest = 0;
  for (const match of sql.matchAll(/json_(?:object|insert|array)\(/g)) {
    let depth = 0;
    let commas = 0;
    for (let index = (match.index ?? 0) + match[0].length - 1; index < sql.length; index += 1) {
      const char = sql[index];
      if (char === '(') depth += 1;
      else if (char === ')') {
        depth -= 1;
        if (depth === 0) break;
      } else if (char === ',' && depth === 1) commas += 1;
    }
    widest = Math.max(widest, commas + 1);
  }
  return widest;
}

describe('history triggers', () => {
  it('are three AFTER triggers that record the key and the after-image while the tenant/org is active or being restored', () => {
    const [insert, update, remove] = renderHistoryTriggers(wide);
    expect(insert).toMatch(/^CREATE TRIGGER `wide_history_insert` AFTER INSERT ON `wide` BEGIN/);
    expect(update).toMatch(/^CREATE TRIGGER `wide_history_update` AFTER UPDATE ON `wide` BEGIN/);
    expect(remove).toMatch(/^CREATE TRIGGER `wide_history_delete` AFTER DELETE ON `wide` BEGIN/);
    expect(insert).toContain(`json_array(NEW."id")`);
    expect(remove).toContain(`json_array(OLD."id"), NULL`);
    for (const sql of [insert, update, remove]) expect(sql).toContain(`\`r\`.\`state\` IN ('active', 'moving')`);
    for (const column of wide.columns) expect(insert).toContain(`NEW."${column}"`);
  });

  it('never passes more than 32 arguments to a JSON function (D1 limit), however wide the table', () => {
    for (const sql of [...renderHistoryTriggers(wide), renderHistoryBaseline(wide)]) expect(countWidestCall(sql)).toBeLessThanOrEqual(32);
  });
});
