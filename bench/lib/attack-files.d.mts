// Types of attack-files.mjs (the import bound tests, test/integration/import-bounds.test.ts, upload its files).
export interface AttackFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly fileName: string;
  /** The message key of the bound that stops it. */
  readonly key: string;
  /** 413: refused at upload (nothing stored); absent: the import ends Fatal. */
  readonly upload?: number;
}
export declare const CSV_HEADER: string;
/** Text repeated `count` times (1: once), a segment of a zip part. */
export interface Segment {
  readonly text: string;
  readonly count: number;
}
export declare function buildWorkbook(rows: Segment[], sharedStrings?: Segment[]): Uint8Array;
export declare function buildAttackFiles(): AttackFile[];
