/**
 * Types of two Node built-ins the Deno platform uses (Deno implements both). Declared here because the
 * Worker's type check has no Node types of them; only src/runtime/deno/ may import these modules (node:http and
 * node:https, which pinned-fetch.ts uses, take their types from @types/node).
 */
declare module 'node:sqlite' {
  export type SqliteValue = null | number | bigint | string | Uint8Array;

  export interface ColumnDescription {
    readonly name: string;
  }

  export interface StatementSync {
    all(...parameters: SqliteValue[]): unknown[];
    columns(): ColumnDescription[];
    setReadBigInts(enabled: boolean): void;
    setReturnArrays(enabled: boolean): void;
  }

  export interface DatabaseSyncOptions {
    readonly limits?: { readonly likePatternLength?: number };
  }

  export class DatabaseSync {
    constructor(path: string, options?: DatabaseSyncOptions);
    readonly isTransaction: boolean;
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    close(): void;
  }
}

declare module 'node:v8' {
  export function serialize(value: unknown): Uint8Array;
  export function deserialize(data: Uint8Array): unknown;
}
