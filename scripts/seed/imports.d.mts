// Types of imports.mjs (the seed test, test/integration/imports-seed.test.ts, runs it against the Worker).
export type SeedSend = (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string }>;
export declare const referenceData: Record<string, unknown[]>;
export declare const records: { path: string; method?: string; body: unknown }[];
export declare function seed(send: SeedSend): Promise<number>;
