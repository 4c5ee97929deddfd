// Types of exchange-rates.mjs (test/integration/exchange-rates-seed.test.ts applies it through the Worker).
export declare const referenceData: Record<string, Record<string, unknown>[]>;
export declare const records: { path: string; method?: string; body: unknown }[];
