/** Reference data kinds (CONTRACT 9), described once: fields, table, references. */

export type ReferenceFieldKind = 'string' | 'int' | 'bool' | 'stringList' | 'choice';

export interface ReferenceFieldSpec {
  readonly kind: ReferenceFieldKind;
  readonly column: string;
  readonly required?: boolean;
  /** For `choice`: the allowed values (matched case-insensitively, stored as written here). */
  readonly choices?: readonly string[];
  /** The value (or each list item) is the key of a record of this kind. */
  readonly reference?: string;
  readonly maxLength?: number;
}

export interface ReferenceKindSpec {
  /** URL segment and name (`companies`). */
  readonly kind: string;
  readonly table: string;
  /** Standard lists (cultures, currencies) are global, read-only and cached in memory. */
  readonly standard: boolean;
  readonly fields: Readonly<Record<string, ReferenceFieldSpec>>;
  /** Description of the key (`KPI code`). */
  readonly keyDescription?: string;
  /**
   * Keys of the kind compare case-insensitively: any input spelling of a key becomes this canonical one before it
   * is looked up, stored or answered (cultures: `pt-PT`, currencies: `EUR`). Without it, keys are exact.
   */
  readonly canonicalKey?: (key: string) => string;
  /** A rule across fields of one record; returns the problem, if any. */
  readonly check?: (record: Record<string, unknown> & { key: string }) => { path: string; message: string } | undefined;
}

export type ReferenceRecord = { id: string; key: string } & Record<string, unknown>;
