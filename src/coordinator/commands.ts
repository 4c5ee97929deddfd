/**
 * The commands a tenant/org's coordinator runs one at a time, as one discriminated union (`type`).
 *
 * `CommandCatalog` maps each command type to its payload and its result. The cache generation counters are
 * declared here; each service adds its own commands where it defines their handlers, by declaration merging:
 *
 *   declare module '../../coordinator/commands' {
 *     interface CommandCatalog {
 *       'imports.change': { payload: ChangeImportPayload; result: ChangeOutcome };
 *     }
 *   }
 *
 * so the union, the handler map and the typed `send` always cover every command, without this folder knowing
 * the services.
 */
import type { TenantScope } from '../db/client';
import type { TenantSession } from '../tenant/session';

export interface CommandCatalog {
  /** The value of a cache generation counter of the tenant/org (0 before the first bump). */
  'generation.read': { payload: { readonly name: string }; result: number };
  /** Moves a cache generation counter on by one; answers the new value. */
  'generation.bump': { payload: { readonly name: string }; result: number };
}

export type CommandType = keyof CommandCatalog;

/** What every command carries: its type and the tenant/org it is for. */
export interface CommandEnvelope<TType extends CommandType = CommandType> extends TenantScope {
  readonly type: TType;
  /** A command sent while one with the same joinKey is queued and not yet started shares its result. */
  readonly joinKey?: string;
}

/** The command of type `K` (or, by default, any command: the discriminated union). */
export type CommandOf<K extends CommandType = CommandType> = { [P in K]: CommandEnvelope<P> & CommandCatalog[P]['payload'] }[K];

export type CoordinatorCommand = CommandOf;

export type CommandResult<K extends CommandType = CommandType> = CommandCatalog[K]['result'];

/** The per-tenant/org coordinator (a Durable Object on Cloudflare): its commands run one at a time. */
export interface Coordinator {
  send<C extends CoordinatorCommand>(command: C): Promise<CommandResult<C['type']>>;
}

/** Durable per-tenant/org state of the coordinator (Durable Object storage on Cloudflare). */
export interface CoordinatorState {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Entries whose keys start with `prefix` and sort before `end`, in key order, at most `limit`. */
  list<T>(prefix: string, end: string, limit: number): Promise<Map<string, T>>;
}

/**
 * What a command handler gets: the tenant/org's session (stamped `system` at the command's start; `withStamp` for the
 * command's own actor), the clock and the coordinator's own storage.
 */
export interface CommandContext {
  readonly tenant: TenantSession;
  now(): Date;
  readonly state: CoordinatorState;
}

type CommandHandler<K extends CommandType> = (context: CommandContext, command: CommandOf<K>) => Promise<CommandResult<K>>;

/** A handler per command type (services contribute theirs through the registry, which checks that none is missing). */
export type CommandHandlers = { readonly [K in CommandType]: CommandHandler<K> };

/** Runs one command with its handler. */
export function runCommand<K extends CommandType>(
  handlers: Partial<CommandHandlers>,
  context: CommandContext,
  command: CommandOf<K>,
): Promise<CommandResult<K>> {
  const handler: CommandHandler<K> | undefined = handlers[command.type];
  if (!handler) throw new Error(`Unknown coordinator command ${command.type}`);
  return handler(context, command);
}

const generationKey = (name: string) => `generation:${name}`;

/** `generation.read` / `generation.bump`: a counter per tenant/org and name, used to invalidate caches. */
export const generationCommands: Pick<CommandHandlers, 'generation.read' | 'generation.bump'> = {
  'generation.read': async ({ state }, command) => (await state.get<number>(generationKey(command.name))) ?? 0,
  'generation.bump': async ({ state }, command) => {
    const next = ((await state.get<number>(generationKey(command.name))) ?? 0) + 1;
    await state.put(generationKey(command.name), next);
    return next;
  },
};
