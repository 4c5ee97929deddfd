// Types of exchange-rates.mjs (test/integration/exchange-rates-seed.test.ts applies it through the Worker).
export declare const referenceData: Record<string, Record<string, unknown>[]>;
import type { SeedRecord } from './apply.mjs';
export declare const records: SeedRecord[];
