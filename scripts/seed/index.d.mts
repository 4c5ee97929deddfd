// Types of index.mjs (used by test/integration/batch-doc-examples.test.ts).
import type { SeedModule } from './apply.mjs';

export declare const seedModules: readonly SeedModule[];
