// Types of check-shape.mjs (used by test/tooling/check-shape.test.ts).
export interface SourceFile {
  /** Relative to the repository, with `/`. */
  readonly path: string;
  readonly text: string;
}
export interface ShapeProblem {
  /** Stable (no line numbers, no sizes): what KNOWN_VIOLATIONS lists. */
  readonly key: string;
  readonly message: string;
}
export declare const MAX_FILE_LINES: number;
export declare const MAX_FUNCTION_LINES: number;
export declare const ENTRY_FILES: ReadonlyMap<string, string>;
export declare const KNOWN_VIOLATIONS: readonly string[];
export declare function resolveSpecifier(fromFile: string, specifier: string, files: ReadonlySet<string>): string | undefined;
export declare function checkShape(
  files: readonly SourceFile[],
  options?: { entryFiles?: ReadonlyMap<string, string>; maxFileLines?: number; maxFunctionLines?: number },
): ShapeProblem[];
export declare function compareWithKnown(
  problems: readonly ShapeProblem[],
  known: readonly string[],
): { unexpected: ShapeProblem[]; fixed: string[] };
