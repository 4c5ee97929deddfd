// Types of deno-bin.mjs (used by the Deno test run, test/deno/).
export declare const DENO_ENTRY: string;
export declare const DENO_TEST_ENTRY: string;
export declare function resolveDenoExecutable(): string;
export declare function buildDenoArgs(writableDirectory: string, entry?: string): string[];
export declare function buildDenoEnv(extra: Record<string, string>): Record<string, string | undefined>;
