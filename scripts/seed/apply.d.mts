// Types of apply.mjs (the seed tests apply service modules through the Worker with it).
export type SeedSend = (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string }>;
export interface SeedModule {
  readonly referenceData?: Record<string, unknown[]>;
  readonly records?: readonly { path: string; method?: string; body: unknown }[];
  seed?(send: SeedSend): Promise<number>;
}
export declare function applySeedModule(module: SeedModule, send: SeedSend): Promise<number>;
