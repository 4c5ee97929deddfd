/** Commands the per-tenant/org coordinator runs one at a time, by type. */
import type { CoordinatorCommand, Platform } from '../platform/types';
import { idempotencyCommandHandlers } from '../idempotency/commands';
import { importCommandHandlers } from '../services/imports/commands';
import { indicatorCommandHandlers } from '../services/indicators/commands';

/** Durable per-tenant/org state of the coordinator (Durable Object storage on Cloudflare). */
export interface CoordinatorState {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Entries whose keys start with `prefix` and sort before `end`, in key order, at most `limit`. */
  list<T>(prefix: string, end: string, limit: number): Promise<Map<string, T>>;
}

export type CommandHandler = (platform: Platform, command: CoordinatorCommand, state: CoordinatorState) => Promise<unknown>;

/** `generation.read` / `generation.bump`: a counter per tenant/org and name, used to invalidate caches. */
const generationHandlers: Record<string, CommandHandler> = {
  'generation.read': async (_platform, command, state) => (await state.get<number>(`generation:${String(command.name)}`)) ?? 0,
  'generation.bump': async (_platform, command, state) => {
    const key = `generation:${String(command.name)}`;
    const next = ((await state.get<number>(key)) ?? 0) + 1;
    await state.put(key, next);
    return next;
  },
};

export const commandHandlers: Readonly<Record<string, CommandHandler>> = {
  ...generationHandlers,
  ...idempotencyCommandHandlers,
  ...importCommandHandlers,
  ...indicatorCommandHandlers,
};

export async function runCommand(platform: Platform, command: CoordinatorCommand, state: CoordinatorState): Promise<unknown> {
  const handler = commandHandlers[command.type];
  if (!handler) throw new Error(`Unknown coordinator command ${command.type}`);
  return handler(platform, command, state);
}
