/**
 * Every service of the API, as one list. A service folder exports one module object (its `index.ts`); the
 * application's routes, coordinator commands, cron jobs and reference data rules are all read from this list.
 */
import { generationCommands } from '../coordinator/commands';
import type { CommandHandlers, CommandType } from '../coordinator/commands';
import { forgetCachedDefinitions } from '../resources/entities/create-checks';
import type { ImportTemplate } from '../resources/entities/import-template';
import { deriveReferenceUsers } from '../resources/entities/service';
import { idempotencyCommands } from '../idempotency/commands';
import type { EntitySpec } from '../resources/entities/spec';
import type { EntityStore } from '../resources/entities/store';
import type { ApiRoute, PublicRoute } from '../http/route';
import type { LineResource } from '../model/resource';
import type { ScheduledJob } from '../jobs/scheduler';
import type { WriteWatcherFactory } from '../runtime/platform';
import { buildReferenceDataRoutes } from '../resources/reference/routes';
import type { ReferenceRules, ReferenceWriteReaction, UpsertGuard } from '../resources/reference/routes';
import type { KeyHolderSpec } from '../resources/reference/spec';
import type { ReferenceUser } from '../resources/reference/usage';
import { batchService } from './batch';
import { buildEmailTemplatesService } from './email-templates';
import { eventsService } from './events';
import { exchangeRatesService } from './exchange-rates';
import { identityService } from './identity';
import { buildImportsService } from './imports';
import { indicatorsService } from './indicators';
import { routesService } from './routes';

/** What a service contributes to the application. */
interface ServiceModule {
  readonly name: string;
  /** HTTP routes under `/api/{tenantKey}/{orgKey}`, in matching order (literal segments before parameters). */
  readonly routes: readonly ApiRoute[];
  /** Routes outside `/api`, without a bearer token (the OAuth2 token endpoint). */
  readonly publicRoutes?: readonly PublicRoute[];
  /** Entity stores (entity-derived services): the reference fields of their entities are reference users. */
  readonly stores?: readonly EntityStore[];
  /** Line descriptions of the service's entities (rate lines): the standard service root's contained navigation. */
  readonly lines?: readonly LineResource[];
  /** Coordinator command handlers (each command declared in CommandCatalog beside its handler). */
  readonly commands?: Partial<CommandHandlers>;
  /** Work for the cron trigger. */
  readonly jobs?: readonly ScheduledJob[];
  /** Other columns holding reference keys: a reference record they use cannot be deleted. */
  readonly referenceUsers?: readonly ReferenceUser[];
  /** The service's own tables whose columns hold reference keys, for the generated rule triggers (src/resources/). */
  readonly keyHolders?: readonly KeyHolderSpec[];
  /** Rules on reference upserts of kinds the service depends on. */
  readonly referenceGuards?: readonly UpsertGuard[];
  /** What to do after a reference write of a kind, before it is answered (e.g. retire cache entries). */
  readonly referenceWriteReactions?: readonly ReferenceWriteReaction[];
  /** Import templates of the service's records (POST /corePatterns/importDataInfos/files). */
  readonly importTemplates?: readonly ImportTemplate[];
  /** Reads that ride at the end of every write batch of a tenant/org, with what to do once it commits (webhook kicks). */
  readonly writeWatchers?: readonly WriteWatcherFactory[];
}

/** Email templates render with a route's maintenance notification parameters: the two services meet here. */
const emailTemplatesService = buildEmailTemplatesService({ routeParameters: routesService.notificationParameters });

/** Imports take files of the other services' records: their templates meet here. */
const importsService = buildImportsService({
  templates: ([emailTemplatesService, routesService, indicatorsService, exchangeRatesService] as const).flatMap(
    (service) => service.importTemplates,
  ),
  // Reference files are written under the reference data routes' rules (below; read when a file is processed).
  referenceRules: () => referenceRules,
});

/** The services, in route registration order. */
const SERVICES = [
  batchService,
  identityService,
  emailTemplatesService,
  routesService,
  importsService,
  indicatorsService,
  exchangeRatesService,
  eventsService,
] as const satisfies readonly ServiceModule[];

type ServiceCommands<S> = S extends { readonly commands: infer C } ? keyof C : never;
type RequireNone<T extends never> = T;
/** Compile-time check: every command of CommandCatalog has a handler (the type check names a missing one here). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- read by the type checker only: its constraint is the check
type UnhandledCommands = RequireNone<
  Exclude<CommandType, keyof typeof generationCommands | keyof typeof idempotencyCommands | ServiceCommands<(typeof SERVICES)[number]>>
>;

const services: readonly ServiceModule[] = SERVICES;

/** The entities stored in tables of their own, in service order (the trigger generator reads them). */
export const serviceEntitySpecs: readonly EntitySpec[] = services.flatMap((service) => service.stores ?? []).map((store) => store.spec);

/** The line descriptions of the services' entities (the standard service root reads them). */
export const serviceLineSpecs: readonly LineResource[] = services.flatMap((service) => service.lines ?? []);

/** The services' own tables that hold reference keys (the trigger generator reads them). */
export const serviceKeyHolders: readonly KeyHolderSpec[] = services.flatMap((service) => service.keyHolders ?? []);

/** The services' columns that hold reference keys (entity reference fields, member tables, measurements). */
export const serviceReferenceUsers: readonly ReferenceUser[] = [
  ...services.flatMap((service) => service.stores ?? []).flatMap(deriveReferenceUsers),
  ...services.flatMap((service) => service.referenceUsers ?? []),
];

/** The rules the services add to reference data writes (the reference data routes and reference file imports). */
const referenceRules: ReferenceRules = {
  users: serviceReferenceUsers,
  guards: services.flatMap((service) => service.referenceGuards ?? []),
  reactions: [
    // This isolate's cached definitions go at once (other isolates' creates find theirs outdated in their batch).
    { kind: 'customAttributes', react: async (ctx) => forgetCachedDefinitions(ctx.scope) },
    ...services.flatMap((service) => service.referenceWriteReactions ?? []),
  ],
};

const referenceDataRoutes = buildReferenceDataRoutes(referenceRules);

export const apiRoutes: readonly ApiRoute[] = [...referenceDataRoutes, ...services.flatMap((service) => service.routes)];

/** The services' routes outside `/api` (the application adds /health and the API reference). */
export const servicePublicRoutes: readonly PublicRoute[] = services.flatMap((service) => service.publicRoutes ?? []);

/** What the tenant/org coordinators run: the cache generation counters, the idempotency keys and every service's commands. */
export const commandHandlers: Partial<CommandHandlers> = services.reduce<Partial<CommandHandlers>>(
  (handlers, service) => ({ ...handlers, ...service.commands }),
  { ...generationCommands, ...idempotencyCommands },
);

/** File imports' processing (the Workflow on Workers, the durable runner under Deno). */
export const processImport = importsService.processImport;

/** The cron trigger's jobs. */
export const scheduledJobs: readonly ScheduledJob[] = services.flatMap((service) => service.jobs ?? []);

/** The services' write watchers (every platform attaches them to every tenant database it opens). */
export const writeWatchers: readonly WriteWatcherFactory[] = services.flatMap((service) => service.writeWatchers ?? []);

/** The webhook delivery queue's consumer (Cloudflare Queues, or the Deno queue). */
export { deliverSubscription } from './events/delivery';
