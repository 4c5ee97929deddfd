/** Compiles a parsed OData query to parameterized SQL with drizzle's `sql` builder. Values are always bound. */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { odataError } from './lexer';
import { valueTypeOf } from './parse-filter';
import type { FilterNode, Literal, ODataQuery, OrderTerm, ValueNode } from './types';

/** D1 binds at most 100 parameters per statement; the list query adds its own (scope, limit, offset). */
export const MAX_FILTER_PARAMETERS = 90;

const OPERATORS = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

class Compiler {
  parameters = 0;

  private bind(value: unknown): SQL {
    this.parameters += 1;
    if (this.parameters > MAX_FILTER_PARAMETERS) {
      throw odataError('$filter', undefined, `the filter has more than ${MAX_FILTER_PARAMETERS} values; split the query`);
    }
    return sql`${value}`;
  }

  private literal(literal: Literal): SQL {
    switch (literal.type) {
      case 'null':
        return sql`NULL`;
      case 'boolean':
        return this.bind(literal.value ? 1 : 0);
      default:
        return this.bind(literal.value);
    }
  }

  value(node: ValueNode): SQL {
    switch (node.type) {
      case 'property': {
        const column = sql`${sql.identifier(node.field.column)}`;
        return node.field.kind === 'decimal' ? sql`CAST(${column} AS NUMERIC)` : column;
      }
      case 'literal':
        return this.literal(node.literal);
      case 'function': {
        const arg = this.value(node.args[0] as ValueNode);
        switch (node.name) {
          case 'tolower':
            return sql`lower(${arg})`;
          case 'toupper':
            return sql`upper(${arg})`;
          case 'length':
            return sql`length(${arg})`;
          case 'year':
            return sql`CAST(substr(${arg}, 1, 4) AS INTEGER)`;
          case 'month':
            return sql`CAST(substr(${arg}, 6, 2) AS INTEGER)`;
          case 'day':
            return sql`CAST(substr(${arg}, 9, 2) AS INTEGER)`;
        }
      }
    }
  }

  filter(node: FilterNode): SQL {
    switch (node.type) {
      case 'and':
        return sql`(${this.filter(node.left)} AND ${this.filter(node.right)})`;
      case 'or':
        return sql`(${this.filter(node.left)} OR ${this.filter(node.right)})`;
      case 'not':
        return sql`(NOT ${this.filter(node.operand)})`;
      case 'value':
        return sql`(${this.value(node.value)} = 1)`;
      case 'in': {
        const values = node.values.map((value) => this.value(value));
        return sql`(${this.value(node.operand)} IN (${sql.join(values, sql`, `)}))`;
      }
      case 'call': {
        const [target, search] = node.args.map((arg) => this.value(arg));
        if (node.name === 'contains') return sql`(instr(${target}, ${search}) > 0)`;
        if (node.name === 'startswith') return sql`(instr(${target}, ${search}) = 1)`;
        return sql`(length(${search}) <= length(${target}) AND substr(${target}, length(${target}) - length(${search}) + 1) = ${search})`;
      }
      case 'compare':
        return this.compare(node.operator, node.left, node.right);
    }
  }

  private compare(operator: keyof typeof OPERATORS, left: ValueNode, right: ValueNode): SQL {
    const leftNull = valueTypeOf(left) === 'null';
    const rightNull = valueTypeOf(right) === 'null';
    if (leftNull || rightNull) {
      if (leftNull && rightNull) return operator === 'eq' ? sql`(1 = 1)` : sql`(1 = 0)`;
      const operand = this.value(leftNull ? right : left);
      return operator === 'eq' ? sql`(${operand} IS NULL)` : sql`(${operand} IS NOT NULL)`;
    }
    return sql`(${this.value(left)} ${sql.raw(OPERATORS[operator])} ${this.value(right)})`;
  }
}

export interface CompiledQuery {
  readonly where?: SQL;
  readonly orderBy: SQL;
  readonly parameters: number;
}

/** Default order is by creation then id, so paging is stable; user keys come first. */
export function compileOrderBy(terms: readonly OrderTerm[]): SQL {
  const parts = terms.map((term) => {
    const column = sql.identifier(term.field.column);
    const expression = term.field.kind === 'decimal' ? sql`CAST(${column} AS NUMERIC)` : column;
    return term.descending ? sql`${expression} DESC` : sql`${expression} ASC`;
  });
  parts.push(sql`${sql.identifier('created_on')} ASC`, sql`${sql.identifier('id')} ASC`);
  return sql.join(parts, sql`, `);
}

export function compileODataQuery(query: ODataQuery): CompiledQuery {
  const compiler = new Compiler();
  const where = query.filter ? compiler.filter(query.filter) : undefined;
  return { ...(where ? { where } : {}), orderBy: compileOrderBy(query.orderBy), parameters: compiler.parameters };
}
