/** Derives an entity's HTTP routes from its description. */
import type { ApiContext } from '../../http/context';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import type { EntityDocOptions } from './doc-schemas';
import { handleCreate } from './create';
import type { CreateOptions } from './create';
import { handleAttributeUpdate, handleCustomAttributeUpdate, handleDelete, handleList, handleRead } from './handlers';
import type { Decorate } from './handlers';
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
import { handleRecordUpdate } from './update';
import type { CheckUpdate } from './update';
import { describeEntityUpdate } from './update-docs';

export interface EntityRouteOptions {
  readonly create?: CreateOptions;
  /** Adds related data (route members, rate lines) to read and list answers. */
  readonly decorate?: Decorate;
  /** Service checks of an attribute's new value, by attribute name. */
  readonly checkAttribute?: Readonly<Record<string, (ctx: ApiContext, value: unknown) => Promise<void>>>;
  /**
   * The same rules on the record as a PATCH or PUT leaves it (several attributes at once); required with
   * `checkAttribute`, so that no update skips a rule.
   */
  readonly checkUpdate?: CheckUpdate;
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

function parseIdLookup(ctx: ApiContext): RecordLookup {
  return { by: 'id', id: (ctx.params.id ?? '').toLowerCase() };
}

/** One path that names a record, as its routes, summaries and OpenAPI describe it. */
interface RecordPath {
  readonly by: 'segment' | 'id' | 'key';
  readonly path: string;
  /** How the summaries name the record: `by id or by code`, `by id`, `by key`. */
  readonly named: string;
  /** What the operation ids end with: nothing, `ById`, `ByKey`. */
  readonly operationSuffix: string;
  parse(ctx: ApiContext): RecordLookup;
}

/** The paths of one record: single-key entities share `/{idOr<Key>}` (both meanings), composite keys add `/{id}`. */
function listRecordPaths(store: EntityStore): RecordPath[] {
  const { spec } = store;
  if (spec.key.length === 1) {
    const [keyName = 'key'] = spec.key;
    const segment = segmentParamName(spec);
    return [
      {
        by: 'segment',
        path: `${spec.basePath}/:${segment}`,
        named: `by id or by ${keyName}`,
        operationSuffix: '',
        parse: (ctx) => parseSegmentLookup(spec, ctx.params[segment] ?? ''),
      },
    ];
  }
  return [
    { by: 'id', path: `${spec.basePath}/:id`, named: 'by id', operationSuffix: 'ById', parse: parseIdLookup },
    {
      by: 'key',
      path: `${spec.basePath}${keyParams(store)}`,
      named: 'by key',
      operationSuffix: 'ByKey',
      parse: (ctx) => keyLookupOf(store, ctx),
    },
  ];
}

/** The read and the delete of one record, on each path that names it. */
function buildReadRoutes(store: EntityStore, options: EntityRouteOptions): ApiRoute[] {
  const { spec } = store;
  const tags = tagOf(store);
  const docOptions = options.doc ?? {};
  const title = spec.title.toLowerCase();
  return listRecordPaths(store).flatMap((record) => [
    defineApiRoute({
      method: 'GET',
      path: record.path,
      scope: 'application',
      doc: {
        summary: `Read a ${title} ${record.named}`,
        tags,
        operationId: `read${spec.resourceName}${record.operationSuffix}`,
        ...describeEntityRead(spec, docOptions, record.by),
      },
      handle: (ctx) => handleRead(ctx, store, record.parse(ctx), options.decorate),
    }),
    defineApiRoute({
      method: 'DELETE',
      path: record.path,
      scope: 'application',
      doc: {
        summary: `Delete a ${title} ${record.named}`,
        tags,
        operationId: `delete${spec.resourceName}${record.operationSuffix}`,
        ...describeEntityDelete(spec, docOptions, record.by),
      },
      handle: (ctx) => handleDelete(ctx, store, record.parse(ctx)),
    }),
  ]);
}

/** PATCH (merge) and PUT (replace) of a record, on each path that names it. */
function buildUpdateRoutes(store: EntityStore, options: EntityRouteOptions): ApiRoute[] {
  const { spec } = store;
  if (options.checkAttribute && !options.checkUpdate) throw new Error(`${spec.name}: checkAttribute needs checkUpdate.`);
  const tags = tagOf(store);
  const docOptions = options.doc ?? {};
  const title = spec.title.toLowerCase();
  const related = Object.keys(docOptions.answerExtras ?? {});
  const modes = [
    { method: 'PATCH', mode: 'merge', summary: 'Update', verb: 'update' },
    { method: 'PUT', mode: 'replace', summary: 'Replace', verb: 'replace' },
  ] as const;
  return listRecordPaths(store).flatMap((record) =>
    modes.map(({ method, mode, summary, verb }) =>
      defineApiRoute({
        method,
        path: record.path,
        scope: 'application',
        doc: {
          summary: `${summary} a ${title} ${record.named}`,
          tags,
          operationId: `${verb}${spec.resourceName}${record.operationSuffix}`,
          ...describeEntityUpdate(spec, docOptions, record.by, mode),
        },
        handle: (ctx) =>
          handleRecordUpdate(ctx, store, record.parse(ctx), {
            mode,
            related,
            decorate: options.decorate,
            checkUpdate: options.checkUpdate,
            body: options.create?.body,
          }),
      }),
    ),
  );
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
    ...buildUpdateRoutes(store, options),
    ...attributeRoutes(store, options),
  ];
}
