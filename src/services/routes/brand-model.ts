/** A route's brand model must be a model of the route's brand. */
import type { GroupOverlay } from '../../tenant/atomic-group';
import type { TenantReader } from '../../tenant/session';
import type { FieldError } from '../../errors/api-error';
import { findReferences } from '../../resources/reference/store';
import { message } from '../../messages/catalogue';

/**
 * Problems of a (brand, brandModel) pair, reported at `path`. An unknown brand model is left to the
 * reference check (UnknownReference); a model without the route's brand, or of another brand, is refused. With an
 * atomic group's `overlay`, the model as the group's reference writes leave it.
 */
export async function checkBrandModel(
  tenant: TenantReader,
  brand: unknown,
  brandModel: unknown,
  path: 'brand' | 'brandModel',
  overlay?: GroupOverlay,
): Promise<FieldError[]> {
  if (typeof brandModel !== 'string' || brandModel === '') return [];
  const found = await findReferences(tenant, [{ kind: 'brandModels', key: brandModel, path }], overlay);
  return judgeBrandModel(brand, brandModel, found.get('brandModels')?.get(brandModel), path);
}

/** The rule on a brand model record already read (undefined: unknown, left to the reference check). */
export function judgeBrandModel(
  brand: unknown,
  brandModel: string,
  model: Readonly<Record<string, unknown>> | undefined,
  path: 'brand' | 'brandModel',
): FieldError[] {
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
