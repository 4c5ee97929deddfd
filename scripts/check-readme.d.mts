// Types of check-readme.mjs (used by test/tooling/readme-examples.test.ts).
export interface ExampleBlock {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}
export declare const README_BASE: string;
export declare const README_RECEIVER: string;
export declare const EXAMPLE_FILES: readonly string[];
export declare function readExampleBlocks(file?: string, text?: string): ExampleBlock[];
export declare function readAllExampleBlocks(): ExampleBlock[];
export declare function buildScript(blocks: readonly ExampleBlock[], base: string, receiver: string): string;
export declare function checkStatuses(blocks: readonly ExampleBlock[], stderr: string): string[];
export declare function runReadmeExamples(options?: {
  base?: string;
  receiverPort?: number;
  env?: Record<string, string>;
}): Promise<{ problems: string[]; errors: string[]; stdout: string; receiver: string }>;
