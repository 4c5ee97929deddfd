// Types of imports.mjs (the seed test, test/integration/imports-seed.test.ts, runs it against the Worker).
export type SeedSend = (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string }>;
export declare const referenceData: Record<string, unknown[]>;
import type { SeedRecord } from './apply.mjs';
export declare const records: SeedRecord[];
export declare function seed(send: SeedSend): Promise<number>;
