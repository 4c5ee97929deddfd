/**
 * Every statement the code compiles and keeps per isolate (src/tenant/compiled-families.ts) binds placeholders only:
 * each family's every declared owner (entity stores, member kinds) in every shape is compiled here, so no value of
 * one request (a tenant/org's keys included) can be baked into a statement later requests reuse.
 */
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/services/registry';
import { isPlaceholderParam } from '../../src/tenant/compiled';
import { listCompiledFamilies } from '../../src/tenant/compiled-families';

describe('compiled statements', () => {
  it('bind placeholders only, in every family, owner and shape', () => {
    // The registry loads every service, so every entity store and member kind is declared.
    expect(apiRoutes.length).toBeGreaterThan(0);
    const families = listCompiledFamilies();
    expect(families.map((family) => family.name)).toEqual(
      expect.arrayContaining([
        'entity record reads',
        'entity creates',
        'entity created events',
        'route membership batches',
        'subscriptions behind (write watcher)',
      ]),
    );
    for (const family of families) {
      expect(family.owners, family.name).toBeGreaterThan(0);
      const statements = family.compileAll();
      expect(statements.length, family.name).toBeGreaterThan(0);
      for (const statement of statements) {
        const bound = statement.params.filter((param) => !isPlaceholderParam(param));
        expect(bound, `${family.name}: ${statement.sql}`).toEqual([]);
        expect(statement.sql).toContain('?');
      }
    }
  });
});
