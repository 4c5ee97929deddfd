// Types of check-links.mjs (used by test/tooling/docs-links.test.ts).
export declare function listDocFiles(): string[];
export declare function slugify(heading: string): string;
export declare function listAnchors(text: string): Set<string>;
export declare function checkLinks(file: string, text: string, read: (file: string) => string | null): string[];
export declare function checkAllLinks(): string[];
