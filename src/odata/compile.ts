/**
 * Compiles a parsed OData query to parameterized SQL with drizzle's `sql` builder. Values are always bound,
 * never spliced; only column names from the allow-list and fixed SQL keywords are written into the text.
 *
 * Null semantics follow OData: comparisons are two-valued (`null eq null` is true, `null ne 'x'` is true,
 * `null gt 1` is false) while boolean properties and functions of null are null. Outside `not`, SQL's
 * NULL already behaves as false, so plain (indexable) comparisons are used; under `not` every comparison
 * is made null-free first so that `not (x gt 1)` keeps the rows where `x` is null.
 */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { fitsPatternLimit, fittingPart, globPattern, hasTrigram } from './glob';
import { odataError } from './lexer';
import { joinBalanced, leaf, node } from './sql-expr';
import type { Expr } from './sql-expr';
import { valueTypeOf } from './typing';
import { MAX_FILTER_SQL_HEIGHT } from './types';
import { compileOrderBy, listOrderColumns } from './order';
import type { OrderColumn } from './order';
import type { BoolFunction, ComparisonOperator, FilterNode, Literal, ODataQuery, ValueNode } from './types';

const ORDERING = { gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/** A `contains`/`startswith`/`endswith` term the trigram index can find candidates for (src/resources/entities/text-search.ts). */
export interface TextSearchTerm {
  /** The FTS5 table (`<table>_text`). */
  readonly index: string;
  readonly column: string;
  /** The GLOB pattern of the term, the same the filter binds. */
  readonly pattern: string;
}

/**
 * The first top-level `and` term of the filter that is a text function of an indexed field with a literal the index
 * can look up: every matching row matches it, so its index candidates hold every matching row.
 */
function findTextSearchTerm(filter: FilterNode): TextSearchTerm | undefined {
  for (const part of filter.type === 'and' ? collectChain(filter, 'and') : [filter]) {
    if (part.type !== 'call') continue;
    const [target, search] = part.args;
    if (target.type !== 'property' || !target.field.textIndex) continue;
    if (search.type !== 'literal' || search.literal.type !== 'string') continue;
    // A term too long for a GLOB pattern (D1: 50 bytes) looks up the candidates of its longest part that fits: a superset
    // of its matches, which the whole filter then narrows.
    const text = fittingPart(part.name, search.literal.value);
    if (!hasTrigram(text)) continue;
    return { index: target.field.textIndex, column: target.field.column, pattern: globPattern(part.name, text) };
  }
  return undefined;
}

function isNullLiteral(value: ValueNode): boolean {
  return valueTypeOf(value) === 'null';
}

/** `(left op right)`. */
function binary(left: Expr, operator: SQL, right: Expr): Expr {
  return node(sql`(${left.sql} ${operator} ${right.sql})`, left, right);
}

/** `CAST(substr(x, start, length) AS INTEGER)`: a part of an ISO 8601 date-time as a number. */
function castPart(value: Expr, start: number, length: number): Expr {
  const part = node(sql`substr(${value.sql}, ${sql.raw(String(start))}, ${sql.raw(String(length))})`, value);
  return node(sql`CAST(${part.sql} AS INTEGER)`, part);
}

class Compiler {
  /** 0-based `$filter` position of every bound value, in binding order. */
  readonly positions: number[] = [];

  private bind(value: string | number, position: number): Expr {
    this.positions.push(position);
    return leaf(sql`${value}`);
  }

  private literal(literal: Literal, position: number): Expr {
    switch (literal.type) {
      case 'null':
        return leaf(sql`NULL`);
      case 'boolean':
        return this.bind(literal.value ? 1 : 0, position);
      default:
        return this.bind(literal.value, position);
    }
  }

  value(value: ValueNode): Expr {
    switch (value.type) {
      case 'property': {
        const column = leaf(sql`${sql.identifier(value.field.column)}`);
        return value.field.kind === 'decimal' ? node(sql`CAST(${column.sql} AS NUMERIC)`, column) : column;
      }
      case 'literal':
        return this.literal(value.literal, value.position);
      case 'function': {
        const arg = this.value(value.arg);
        switch (value.name) {
          case 'tolower':
            return node(sql`lower(${arg.sql})`, arg);
          case 'toupper':
            return node(sql`upper(${arg.sql})`, arg);
          case 'length':
            return node(sql`length(${arg.sql})`, arg);
          case 'year':
            return castPart(arg, 1, 4);
          case 'month':
            return castPart(arg, 6, 2);
          case 'day':
            return castPart(arg, 9, 2);
        }
      }
    }
  }

  /** `exact`: inside a `not`, where a comparison must be false rather than NULL. */
  filter(filter: FilterNode, exact: boolean): Expr {
    switch (filter.type) {
      case 'and':
      case 'or': {
        const parts = collectChain(filter, filter.type).map((part) => this.filter(part, exact));
        return joinBalanced(parts, filter.type === 'and' ? 'AND' : 'OR');
      }
      case 'not': {
        const operand = this.filter(filter.operand, true);
        return node(sql`(NOT ${operand.sql})`, operand);
      }
      case 'value': {
        const value = this.value(filter.value);
        return node(sql`(${value.sql} = 1)`, value);
      }
      case 'in':
        return this.in(filter.operand, filter.values, exact);
      case 'call':
        return this.call(filter.name, filter.args);
      case 'compare':
        return this.compare(filter.operator, filter.left, filter.right, exact);
    }
  }

  private in(operand: ValueNode, values: readonly ValueNode[], exact: boolean): Expr {
    const present = values.filter((value) => !isNullLiteral(value));
    const parts: Expr[] = [];
    if (present.length > 0) {
      const target = this.value(operand);
      const items = present.map((value) => this.value(value));
      const list = node(
        sql`${target.sql} IN (${sql.join(
          items.map((item) => item.sql),
          sql`, `,
        )})`,
        target,
        ...items,
      );
      parts.push(exact ? node(sql`coalesce(${list.sql}, 0)`, list) : list);
    }
    if (present.length < values.length) {
      const target = this.value(operand);
      parts.push(node(sql`${target.sql} IS NULL`, target));
    }
    return joinBalanced(parts, 'OR');
  }

  private call(name: BoolFunction, [target, search]: readonly [ValueNode, ValueNode]): Expr {
    // A literal becomes one GLOB pattern when it fits D1's limit on patterns (50 bytes); a longer one is compared as text
    // below (instr, substr), which has no such limit.
    if (search.type === 'literal' && search.literal.type === 'string' && fitsPatternLimit(globPattern(name, search.literal.value))) {
      const t = this.value(target);
      const pattern = this.bind(globPattern(name, search.literal.value), search.position);
      return node(sql`(${t.sql} GLOB ${pattern.sql})`, t, pattern);
    }
    if (name !== 'endswith') {
      const t = this.value(target);
      const s = this.value(search);
      const found = node(sql`instr(${t.sql}, ${s.sql})`, t, s);
      return node(name === 'contains' ? sql`(${found.sql} > 0)` : sql`(${found.sql} = 1)`, found);
    }
    // endswith(t, s) with a non-literal s: length(s) <= length(t) AND substr(t, length(t) - length(s) + 1) = s
    const lengthOf = (value: ValueNode) => {
      const operand = this.value(value);
      return node(sql`length(${operand.sql})`, operand);
    };
    const fits = binary(lengthOf(search), sql`<=`, lengthOf(target));
    const t = this.value(target);
    const start = binary(binary(lengthOf(target), sql`-`, lengthOf(search)), sql`+`, leaf(sql`1`));
    const tail = node(sql`substr(${t.sql}, ${start.sql})`, t, start);
    const matches = binary(tail, sql`=`, this.value(search));
    return node(sql`(${fits.sql} AND ${matches.sql})`, fits, matches);
  }

  private compare(operator: ComparisonOperator, left: ValueNode, right: ValueNode, exact: boolean): Expr {
    const leftNull = isNullLiteral(left);
    const rightNull = isNullLiteral(right);
    if (leftNull && rightNull) return binary(leaf(sql`1`), sql`=`, leaf(operator === 'eq' ? sql`1` : sql`0`));
    if (leftNull || rightNull) {
      const operand = this.value(leftNull ? right : left);
      return node(operator === 'eq' ? sql`(${operand.sql} IS NULL)` : sql`(${operand.sql} IS NOT NULL)`, operand);
    }
    const l = this.value(left);
    const r = this.value(right);
    if (operator === 'eq') return node(sql`(${l.sql} IS ${r.sql})`, l, r);
    if (operator === 'ne') return node(sql`(${l.sql} IS NOT ${r.sql})`, l, r);
    const comparison = node(sql`${l.sql} ${sql.raw(ORDERING[operator])} ${r.sql}`, l, r);
    return exact ? node(sql`coalesce(${comparison.sql}, 0)`, comparison) : { ...comparison, sql: sql`(${comparison.sql})` };
  }
}

/** The operands of a chain of the same logical operator (the parser builds it left-deep). */
function collectChain(root: FilterNode, type: 'and' | 'or'): FilterNode[] {
  const operands: FilterNode[] = [];
  const pending: FilterNode[] = [root];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current.type === type) pending.push(current.right, current.left);
    else operands.push(current);
  }
  return operands;
}

export interface CompiledQuery {
  readonly where?: SQL;
  readonly orderBy: SQL;
  /** The columns of the total order, in order (what a `$skiptoken` holds the values of). */
  readonly orderColumns: readonly OrderColumn[];
  /** Number of values the filter binds. */
  readonly parameters: number;
  /** 0-based `$filter` position of every bound value, in binding order. */
  readonly boundPositions: readonly number[];
  /** A term of the filter the trigram index can find candidates for. */
  readonly textSearch?: TextSearchTerm;
}

export function compileODataQuery(query: ODataQuery): CompiledQuery {
  const compiler = new Compiler();
  const where = query.filter ? compiler.filter(query.filter, false) : undefined;
  if (where && where.height > MAX_FILTER_SQL_HEIGHT) {
    throw odataError(
      '$filter',
      undefined,
      `the filter is too complex: its SQL expression would be ${where.height} levels deep and D1 allows about ${MAX_FILTER_SQL_HEIGHT}; use fewer nested not, functions or parentheses`,
    );
  }
  const textSearch = query.filter ? findTextSearchTerm(query.filter) : undefined;
  return {
    ...(where ? { where: where.sql } : {}),
    ...(textSearch ? { textSearch } : {}),
    orderBy: compileOrderBy(query.orderBy),
    orderColumns: listOrderColumns(query.orderBy),
    parameters: compiler.positions.length,
    boundPositions: compiler.positions,
  };
}

/**
 * Refuses a statement that would bind more values than D1 allows (filter plus tenant/org scope plus
 * limit/offset). `total` is the parameter count of the final statement; the error points at the first
 * filter value that does not fit.
 */
export function checkParameterLimit(total: number, compiled: CompiledQuery, limit: number): void {
  if (total <= limit) return;
  const overhead = total - compiled.boundPositions.length;
  const allowed = Math.max(0, limit - overhead);
  const position = compiled.boundPositions[allowed];
  throw odataError(
    '$filter',
    position,
    `the query needs ${total} bound values but D1 allows at most ${limit} per statement; use at most ${allowed} literal values in $filter`,
  );
}
