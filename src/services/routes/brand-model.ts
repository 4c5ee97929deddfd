/** A route's brand model must be a model of the route's brand. */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import type { FieldError } from '../../errors/api-error';
import { findReferences } from '../../reference/store';
import { refBrandModels } from '../../reference/tables';
import { message } from '../../messages/catalogue';

/**
 * Problems of a (brand, brandModel) pair, reported at `path`. An unknown brand model is left to the
 * reference check (UnknownReference); a model without the route's brand, or of another brand, is refused.
 */
export async function checkBrandModel(
  db: Database,
  scope: TenantScope,
  brand: unknown,
  brandModel: unknown,
  path: 'brand' | 'brandModel',
): Promise<FieldError[]> {
  if (typeof brandModel !== 'string' || brandModel === '') return [];
  const found = await findReferences(db, scope, [{ kind: 'brandModels', key: brandModel, path }]);
  const model = found.get('brandModels')?.get(brandModel);
  if (!model) return [];
  const modelBrand = String(model.brand);
  if (typeof brand !== 'string' || brand === '') {
    return [{ path, message: message('brandModelNeedsBrand', { model: brandModel, brand: modelBrand }) }];
  }
  if (brand !== modelBrand) {
    return [{ path, message: message('brandModelOtherBrand', { model: brandModel, modelBrand, brand }) }];
  }
  return [];
}

/**
 * `checkBrandModel` as an SQL condition of a create's batch: true when it would find nothing (an unknown brand model
 * is the reference condition's to refuse).
 */
export function buildBrandModelCondition(scope: TenantScope, brand: unknown, brandModel: unknown): SQL | undefined {
  if (typeof brandModel !== 'string' || brandModel === '') return undefined;
  const t = refBrandModels;
  const expected = typeof brand === 'string' && brand !== '' ? brand : null;
  return sql`(SELECT ${t.brand} FROM ${t} WHERE ${and(scopeCondition(t, scope), eq(t.key, brandModel))}) IS ${expected}`;
}
