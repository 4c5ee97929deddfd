// Types of deploy-setup.mjs (used by test/tooling/deploy-setup.test.ts).
export interface SetupResource {
  readonly kind: string;
  readonly binding: string;
  readonly name: string;
  readonly section?: string;
  readonly idKey?: string;
  readonly id?: string;
  readonly check?: readonly string[];
  readonly create?: readonly string[];
  readonly note?: string;
}
export declare const SETTINGS: readonly string[];
export declare const COVERED_SECTIONS: readonly string[];
export declare function planSetup(config: Record<string, unknown>): SetupResource[];
export declare function writeId(text: string, resource: { section: string; binding: string; idKey: string }, value: string): string;
export declare function applySetup(configPath: string, options?: { dryRun?: boolean; log?: (line: string) => void }): SetupResource[];
export declare function loadWrangler(): Promise<unknown>;
