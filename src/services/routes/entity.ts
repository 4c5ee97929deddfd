/** Routes: the description; members and tools live in tables of their own. */
import { defineEntitySpec } from '../../entities/spec';
import { checkBrandModel } from './brand-model';

export const routeSpec = defineEntitySpec({
  name: 'routes',
  title: 'Route',
  resourceName: 'Route',
  basePath: '/assetManagementCore/routes',
  table: 'routes',
  key: ['company', 'routeKey'],
  keyParams: ['companyKey', 'routeKey'],
  customAttributes: true,
  fields: {
    routeKey: {
      kind: 'string',
      column: 'route_key',
      required: true,
      updatable: true,
      maxLength: 100,
      description: 'Key of the route (unique per company)',
    },
    description: { kind: 'string', column: 'description', required: true, updatable: true, maxLength: 1000, description: 'Description' },
    company: {
      kind: 'string',
      column: 'company',
      required: true,
      updatable: true,
      maxLength: 100,
      reference: 'companies',
      description: 'Company (key of a companies record); members must belong to it',
    },
    locationFunction: {
      kind: 'string',
      column: 'location_function',
      updatable: true,
      maxLength: 100,
      reference: 'locationFunctions',
      description: 'Location function (key)',
    },
    family: { kind: 'string', column: 'family', updatable: true, maxLength: 100, reference: 'families', description: 'Family (key)' },
    brand: { kind: 'string', column: 'brand', updatable: true, maxLength: 100, reference: 'brands', description: 'Brand (key)' },
    brandModel: {
      kind: 'string',
      column: 'brand_model',
      updatable: true,
      maxLength: 100,
      reference: 'brandModels',
      description: 'Brand model (key); must be a model of the brand',
    },
    remarks: { kind: 'string', column: 'remarks', updatable: true, maxLength: 4000, description: 'Remarks' },
    responsible: {
      kind: 'string',
      column: 'responsible',
      updatable: true,
      maxLength: 100,
      reference: 'employees',
      description: 'Responsible employee (key)',
    },
  },
  hooks: {
    validateCreate: (ctx, values) => checkBrandModel(ctx.db, ctx.scope, values.brand, values.brandModel, 'brandModel'),
    // The trigger routes_brand_model_insert (rule:route_brand_model) holds the same rule in the insert's batch.
    createRuleInDatabase: true,
  },
  indexes: [
    ['company'],
    ['routeKey'],
    ['locationFunction'],
    ['family'],
    ['brand'],
    ['brandModel'],
    ['responsible'],
    ['description'],
    ['modifiedOn'],
  ],
});
