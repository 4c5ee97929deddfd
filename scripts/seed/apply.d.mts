// Types of apply.mjs (the seed tests apply service modules through the Worker with it).
export type SeedSend = (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string }>;
/** A create (with `findPath`: sent only when that filtered list is empty) or an idempotent operation (without). */
export interface SeedRecord {
  readonly path: string;
  readonly method?: string;
  readonly body: unknown;
  readonly findPath?: string;
}
export interface SeedModule {
  readonly referenceData?: Record<string, unknown[]>;
  readonly records?: readonly SeedRecord[];
  seed?(send: SeedSend): Promise<number>;
}
export declare function applySeedModule(module: SeedModule, send: SeedSend): Promise<number>;
export declare function findPath(base: string, filter: string): string;
