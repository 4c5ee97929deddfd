/** The OData query model shared by the parser (pure) and the SQL compiler. */
import type { FieldKind } from '../validation/values';

/** A property a list may be filtered, ordered or selected by. */
export interface ODataField {
  /** API name (camelCase); matched case-insensitively. */
  readonly name: string;
  readonly kind: FieldKind;
  /** SQL column name. */
  readonly column: string;
  /** Enum members (name -> number) so filters may name them. */
  readonly enumMembers?: Readonly<Record<string, number>>;
  /** The field holds keys that compare case-insensitively (cultures, currencies): string literals compared with it are read in this spelling. */
  readonly canonicalKey?: (key: string) => string;
  /** The trigram (FTS5) table indexing this text column by rowid, if any (`contains` and co. read it). */
  readonly textIndex?: string;
  /** The column may hold NULL (orders put NULL first ascending, last descending; a keyset position may be NULL). */
  readonly nullable?: boolean;
}

export type Literal =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'number'; readonly value: number; readonly raw: string }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'null' }
  | { readonly type: 'datetime'; readonly value: string }
  | { readonly type: 'guid'; readonly value: string };

export type ComparisonOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

export type ValueFunction = 'tolower' | 'toupper' | 'length' | 'year' | 'month' | 'day';

export type BoolFunction = 'contains' | 'startswith' | 'endswith';

export type FilterNode =
  | { readonly type: 'and' | 'or'; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly type: 'not'; readonly operand: FilterNode }
  | { readonly type: 'compare'; readonly operator: ComparisonOperator; readonly left: ValueNode; readonly right: ValueNode }
  | { readonly type: 'in'; readonly operand: ValueNode; readonly values: readonly ValueNode[] }
  | { readonly type: 'call'; readonly name: BoolFunction; readonly args: readonly [ValueNode, ValueNode] }
  | { readonly type: 'value'; readonly value: ValueNode };

export type ValueNode =
  | { readonly type: 'property'; readonly field: ODataField; readonly position: number }
  | { readonly type: 'literal'; readonly literal: Literal; readonly position: number }
  | {
      readonly type: 'function';
      readonly name: ValueFunction;
      readonly arg: ValueNode;
      readonly position: number;
    };

export interface OrderTerm {
  readonly field: ODataField;
  readonly descending: boolean;
}

export interface ODataQuery {
  readonly filter?: FilterNode;
  readonly orderBy: readonly OrderTerm[];
  /** Undefined = every field. */
  readonly select?: readonly ODataField[];
  readonly top: number;
  readonly skip: number;
  readonly count: boolean;
  /** `$skiptoken`: the opaque position after which the page starts (keyset paging; checked by `cursor.ts`). */
  readonly skipToken?: string;
}

/**
 * An order a list can be read in without a sort: an index's columns by property name, in index order (after
 * tenant/org). An `$orderby` is read from the index when its properties are the first `required` or more of them (the
 * rest are the tie-breakers every order ends with) and all go the same direction; any other order is sorted, within
 * `SORT_ROW_BUDGET` rows.
 */
interface SortOrder {
  readonly fields: readonly string[];
  readonly required: number;
}

export type SortOrders = readonly SortOrder[];

export const DEFAULT_PAGE_SIZE = 100;
/**
 * Most rows a list sorts for an `$orderby` no index serves (the rows its `$filter` selects, counted up to this bound
 * first): about 0.1 s of sorting in SQLite; more is refused with 400 asking for a `$filter`.
 */
export const SORT_ROW_BUDGET = 100_000;
export const MAX_PAGE_SIZE = 1000;
/** Largest `$skip` (and `(page - 1) * pageSize`). */
export const MAX_SKIP = 2_147_483_647;
/** Longest `$filter` expression, in characters. */
export const MAX_FILTER_LENGTH = 8192;
/** Deepest nesting of parentheses, `not` and function calls in `$filter`. */
export const MAX_FILTER_DEPTH = 24;
/**
 * Highest SQL expression tree a filter may compile to. SQLite/D1 refuse trees over 100 levels; the list
 * query adds one level (the tenant/org scope AND), and a few are kept in reserve.
 */
export const MAX_FILTER_SQL_HEIGHT = 96;
