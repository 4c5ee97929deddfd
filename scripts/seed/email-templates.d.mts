// Types of email-templates.mjs (test/integration/email-templates-render.test.ts applies it through the Worker).
export declare const referenceData: Record<string, Record<string, unknown>[]>;
import type { SeedRecord } from './apply.mjs';
export declare const records: SeedRecord[];
