/** The D1 tables of every reference kind (typed per kind), and their columns for code that works by kind name. */
import { getTableColumns } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  brandModelsKind,
  brandsKind,
  companiesKind,
  culturesKind,
  currenciesKind,
  customAttributesKind,
  employeesKind,
  equipmentItemsKind,
  familiesKind,
  kpiDefinitionsKind,
  locationFunctionsKind,
  locationsKind,
  toolsKind,
  workerConfigurationsKind,
} from './kinds';
import type { ReferenceKindSpec } from './spec';
import { defineStandardTable, defineTenantReferenceTable } from './table';
import type { StandardTable, TenantReferenceTable } from './table';

export const refCultures = defineStandardTable(culturesKind);
export const refCurrencies = defineStandardTable(currenciesKind);
export const refCompanies = defineTenantReferenceTable(companiesKind);
export const refEmployees = defineTenantReferenceTable(employeesKind);
export const refLocations = defineTenantReferenceTable(locationsKind);
export const refEquipmentItems = defineTenantReferenceTable(equipmentItemsKind);
export const refTools = defineTenantReferenceTable(toolsKind);
export const refLocationFunctions = defineTenantReferenceTable(locationFunctionsKind);
export const refFamilies = defineTenantReferenceTable(familiesKind);
export const refBrands = defineTenantReferenceTable(brandsKind);
export const refBrandModels = defineTenantReferenceTable(brandModelsKind);
export const refKpiDefinitions = defineTenantReferenceTable(kpiDefinitionsKind);
export const refWorkerConfigurations = defineTenantReferenceTable(workerConfigurationsKind);
export const refCustomAttributes = defineTenantReferenceTable(customAttributesKind);

/** A reference table seen by kind name: its typed common columns and every column by field name. */
interface ReferenceStoreBase<C> {
  readonly spec: ReferenceKindSpec;
  readonly table: SQLiteTable;
  readonly common: C;
  readonly columns: Readonly<Record<string, SQLiteColumn>>;
}

export type StandardStore = ReferenceStoreBase<Pick<StandardTable, 'id' | 'key'>>;
export type TenantReferenceStore = ReferenceStoreBase<Pick<TenantReferenceTable, 'id' | 'tenantKey' | 'orgKey' | 'key'>>;

function standardStore(spec: ReferenceKindSpec, table: SQLiteTable & Pick<StandardTable, 'id' | 'key'>): [string, StandardStore] {
  return [spec.name, { spec, table, common: { id: table.id, key: table.key }, columns: getTableColumns(table) }];
}

function tenantStore(
  spec: ReferenceKindSpec,
  table: SQLiteTable & Pick<TenantReferenceTable, 'id' | 'tenantKey' | 'orgKey' | 'key'>,
): [string, TenantReferenceStore] {
  const common = { id: table.id, tenantKey: table.tenantKey, orgKey: table.orgKey, key: table.key };
  return [spec.name, { spec, table, common, columns: getTableColumns(table) }];
}

const standardStores: ReadonlyMap<string, StandardStore> = new Map([
  standardStore(culturesKind, refCultures),
  standardStore(currenciesKind, refCurrencies),
]);

/** Tenant kinds in dependency order (a kind only references kinds before it). */
export const tenantReferenceStores: ReadonlyMap<string, TenantReferenceStore> = new Map([
  tenantStore(companiesKind, refCompanies),
  tenantStore(employeesKind, refEmployees),
  tenantStore(locationsKind, refLocations),
  tenantStore(equipmentItemsKind, refEquipmentItems),
  tenantStore(toolsKind, refTools),
  tenantStore(locationFunctionsKind, refLocationFunctions),
  tenantStore(familiesKind, refFamilies),
  tenantStore(brandsKind, refBrands),
  tenantStore(brandModelsKind, refBrandModels),
  tenantStore(kpiDefinitionsKind, refKpiDefinitions),
  tenantStore(workerConfigurationsKind, refWorkerConfigurations),
  tenantStore(customAttributesKind, refCustomAttributes),
]);

export function findStandardStore(kind: string): StandardStore | undefined {
  return standardStores.get(kind);
}

/** The table of a tenant kind the code names itself (a miss is a bug). */
export function requireTenantReferenceStore(kind: string): TenantReferenceStore {
  const store = tenantReferenceStores.get(kind);
  if (!store) throw new Error(`Unknown tenant reference kind ${kind}`);
  return store;
}
