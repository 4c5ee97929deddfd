/** Derives an entity's HTTP routes from its description. */
import type { ApiContext } from '../http/context';
import { defineApiRoute } from '../http/route';
import type { ApiRoute } from '../http/route';
import type { EntityDocOptions } from './doc-schemas';
import { handleAttributeUpdate, handleCreate, handleCustomAttributeUpdate, handleDelete, handleList, handleRead } from './handlers';
import type { CreateOptions, Decorate } from './handlers';
import { parseKeyLookup, parseSegmentLookup } from './lookup';
import {
  describeEntityAttribute,
  describeEntityCreate,
  describeEntityCustomAttribute,
  describeEntityDelete,
  describeEntityIsActive,
  describeEntityList,
  describeEntityRead,
  segmentParamName,
} from './route-docs';
import type { EntityStore, RecordLookup } from './store';

export interface EntityRouteOptions {
  readonly create?: CreateOptions;
  /** Adds related data (route members, rate lines) to read and list answers. */
  readonly decorate?: Decorate;
  /** Service checks of an attribute's new value, by attribute name. */
  readonly checkAttribute?: Readonly<Record<string, (ctx: ApiContext, value: unknown) => Promise<void>>>;
  /** For the OpenAPI document: what `decorate` adds to answers, extra create properties, schema names. */
  readonly doc?: EntityDocOptions;
}

function tagOf(store: EntityStore): string[] {
  return [store.spec.title + 's'];
}

/** Path parameter names of the key (the spec's `keyParams`, else the key field names). */
function keyParamNames(store: EntityStore): readonly string[] {
  return store.spec.keyParams ?? store.spec.key;
}

function keyParams(store: EntityStore): string {
  return keyParamNames(store)
    .map((name) => `/:${name}`)
    .join('');
}

function keyLookupOf(store: EntityStore, ctx: ApiContext) {
  return parseKeyLookup(
    store.spec,
    keyParamNames(store).map((name) => ctx.params[name] ?? ''),
  );
}

/** The path of one record by id: single-key entities share `/{idOr<Key>}` (both meanings), composite keys add `/{id}`. */
function buildReadRoutes(store: EntityStore, options: EntityRouteOptions): ApiRoute[] {
  const { spec } = store;
  const base = spec.basePath;
  const tags = tagOf(store);
  const docOptions = options.doc ?? {};
  if (spec.key.length === 1) {
    const [keyName = 'key'] = spec.key;
    const segment = segmentParamName(spec);
    return [
      defineApiRoute({
        method: 'GET',
        path: `${base}/:${segment}`,
        scope: 'application',
        doc: {
          summary: `Read a ${spec.title.toLowerCase()} by id or by ${keyName}`,
          tags,
          operationId: `read${spec.resourceName}`,
          ...describeEntityRead(spec, docOptions, 'segment'),
        },
        handle: (ctx) => handleRead(ctx, store, parseSegmentLookup(spec, ctx.params[segment] ?? ''), options.decorate),
      }),
      defineApiRoute({
        method: 'DELETE',
        path: `${base}/:${segment}`,
        scope: 'application',
        doc: {
          summary: `Delete a ${spec.title.toLowerCase()} by id or by ${keyName}`,
          tags,
          operationId: `delete${spec.resourceName}`,
          ...describeEntityDelete(spec, docOptions, 'segment'),
        },
        handle: (ctx) => handleDelete(ctx, store, parseSegmentLookup(spec, ctx.params[segment] ?? '')),
      }),
    ];
  }
  return [
    defineApiRoute({
      method: 'GET',
      path: `${base}/:id`,
      scope: 'application',
      doc: {
        summary: `Read a ${spec.title.toLowerCase()} by id`,
        tags,
        operationId: `read${spec.resourceName}ById`,
        ...describeEntityRead(spec, docOptions, 'id'),
      },
      handle: (ctx) => handleRead(ctx, store, parseIdLookup(ctx), options.decorate),
    }),
    defineApiRoute({
      method: 'DELETE',
      path: `${base}/:id`,
      scope: 'application',
      doc: {
        summary: `Delete a ${spec.title.toLowerCase()} by id`,
        tags,
        operationId: `delete${spec.resourceName}ById`,
        ...describeEntityDelete(spec, docOptions, 'id'),
      },
      handle: (ctx) => handleDelete(ctx, store, parseIdLookup(ctx)),
    }),
    defineApiRoute({
      method: 'GET',
      path: `${base}${keyParams(store)}`,
      scope: 'application',
      doc: {
        summary: `Read a ${spec.title.toLowerCase()} by key`,
        tags,
        operationId: `read${spec.resourceName}ByKey`,
        ...describeEntityRead(spec, docOptions, 'key'),
      },
      handle: (ctx) => handleRead(ctx, store, keyLookupOf(store, ctx), options.decorate),
    }),
    defineApiRoute({
      method: 'DELETE',
      path: `${base}${keyParams(store)}`,
      scope: 'application',
      doc: {
        summary: `Delete a ${spec.title.toLowerCase()} by key`,
        tags,
        operationId: `delete${spec.resourceName}ByKey`,
        ...describeEntityDelete(spec, docOptions, 'key'),
      },
      handle: (ctx) => handleDelete(ctx, store, keyLookupOf(store, ctx)),
    }),
  ];
}

function parseIdLookup(ctx: ApiContext): RecordLookup {
  return { by: 'id', id: (ctx.params.id ?? '').toLowerCase() };
}

function attributeRoutes(store: EntityStore, options: EntityRouteOptions): ApiRoute[] {
  const { spec } = store;
  const tags = tagOf(store);
  const updatable = Object.entries(spec.fields)
    .filter(([, field]) => field.updatable)
    .map(([name]) => name);
  const docOptions = options.doc ?? {};
  const describeRoute = (name: string) => ({
    method: 'PUT' as const,
    path: `${spec.basePath}${keyParams(store)}/${name}`,
    scope: 'application' as const,
    summary: `Set the ${name} of a ${spec.title.toLowerCase()}`,
    operationId: `update${spec.resourceName}${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    handle: (ctx: ApiContext) => {
      const check = options.checkAttribute?.[name];
      return handleAttributeUpdate(ctx, store, keyLookupOf(store, ctx), name, {
        listed404: name === 'isActive',
        ...(check ? { check } : {}),
      });
    },
  });
  const routes: ApiRoute[] = updatable.map((name) => {
    const { summary, operationId, ...route } = describeRoute(name);
    return defineApiRoute({ ...route, doc: { summary, tags, operationId, ...describeEntityAttribute(spec, docOptions, name) } });
  });
  const { summary, operationId, ...isActive } = describeRoute('isActive');
  routes.push(defineApiRoute({ ...isActive, doc: { summary, tags, operationId, ...describeEntityIsActive(spec, docOptions) } }));
  if (spec.customAttributes) {
    routes.push(
      defineApiRoute({
        method: 'PUT',
        path: `${spec.basePath}${keyParams(store)}/:customAttributeName`,
        scope: 'application',
        doc: {
          summary: `Set a custom attribute (custom_<name>) of a ${spec.title.toLowerCase()}`,
          tags,
          operationId: `update${spec.resourceName}CustomAttribute`,
          ...describeEntityCustomAttribute(spec, options.doc ?? {}),
        },
        handle: (ctx) => handleCustomAttributeUpdate(ctx, store, keyLookupOf(store, ctx), ctx.params.customAttributeName ?? ''),
      }),
    );
  }
  return routes;
}

/** Every route of an entity. Service-specific routes with literal segments must be registered before these. */
export function buildEntityRoutes(store: EntityStore, options: EntityRouteOptions = {}): ApiRoute[] {
  const { spec } = store;
  const tags = tagOf(store);
  return [
    defineApiRoute({
      method: 'GET',
      path: `${spec.basePath}/odata`,
      scope: 'application',
      doc: {
        summary: `List ${spec.title.toLowerCase()}s (OData)`,
        tags,
        operationId: `list${spec.resourceName}s`,
        ...describeEntityList(spec, options.doc ?? {}),
      },
      handle: (ctx) => handleList(ctx, store, options.decorate),
    }),
    defineApiRoute({
      method: 'POST',
      path: spec.basePath,
      scope: 'application',
      doc: {
        summary: `Create a ${spec.title.toLowerCase()}`,
        tags,
        operationId: `create${spec.resourceName}`,
        ...describeEntityCreate(spec, options.doc ?? {}),
      },
      handle: (ctx) => handleCreate(ctx, store, options.create),
    }),
    ...buildReadRoutes(store, options),
    ...attributeRoutes(store, options),
  ];
}
