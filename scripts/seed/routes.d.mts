// Types of routes.mjs (test/integration/routes-seed.test.ts applies it through the Worker).
export declare const referenceData: Record<string, Record<string, unknown>[]>;
export declare const records: { path: string; method?: string; body: unknown }[];
