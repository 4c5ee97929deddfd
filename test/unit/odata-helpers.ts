/** Shared helpers of the OData unit tests: a field list covering every kind, an AST printer, SQL rendering. */
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { expect } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { compileODataQuery } from '../../src/odata/compile';
import { parseFilter } from '../../src/odata/parse-filter';
import { buildFieldResolver } from '../../src/odata/parse-query';
import type { FilterNode, ODataField, ValueNode } from '../../src/odata/types';

/** One field of each kind, like an entity's allow-list. */
export const FIELDS: readonly ODataField[] = [
  { name: 'id', kind: 'guid', column: 'id' },
  { name: 'subject', kind: 'string', column: 'subject' },
  { name: 'description', kind: 'string', column: 'description' },
  { name: 'number', kind: 'int', column: 'number' },
  { name: 'amount', kind: 'decimal', column: 'amount' },
  { name: 'isActive', kind: 'bool', column: 'is_active' },
  { name: 'createdOn', kind: 'datetime', column: 'created_on' },
  { name: 'externalId', kind: 'guid', column: 'external_id' },
  { name: 'emailTemplateType', kind: 'enum', column: 'email_template_type', enumMembers: { HTML: 1, Text: 2 } },
];

export const resolve = buildFieldResolver(FIELDS);

export function fieldNamed(name: string): ODataField {
  const field = resolve(name);
  if (!field) throw new Error(`no test field ${name}`);
  return field;
}

function showValue(node: ValueNode): string {
  switch (node.type) {
    case 'property':
      return node.field.name;
    case 'function':
      return `${node.name}(${showValue(node.arg)})`;
    case 'literal': {
      const literal = node.literal;
      switch (literal.type) {
        case 'null':
          return 'null';
        case 'string':
          return `'${literal.value}'`;
        case 'number':
          return String(literal.value);
        case 'boolean':
          return String(literal.value);
        default:
          return `${literal.type}:${literal.value}`;
      }
    }
  }
}

/** A fully parenthesised rendering of a filter tree, to check precedence and coercions. */
export function showFilter(node: FilterNode): string {
  switch (node.type) {
    case 'and':
    case 'or':
      return `(${showFilter(node.left)} ${node.type} ${showFilter(node.right)})`;
    case 'not':
      return `(not ${showFilter(node.operand)})`;
    case 'compare':
      return `[${showValue(node.left)} ${node.operator} ${showValue(node.right)}]`;
    case 'in':
      return `[${showValue(node.operand)} in ${node.values.map(showValue).join(',')}]`;
    case 'call':
      return `${node.name}(${node.args.map(showValue).join(',')})`;
    case 'value':
      return `{${showValue(node.value)}}`;
  }
}

export function parsed(expression: string): string {
  return showFilter(parseFilter(expression, resolve));
}

const dialect = new SQLiteAsyncDialect();

/** The WHERE text and parameters a filter compiles to. */
export function compiled(expression: string): { sql: string; params: unknown[] } {
  const query = compileODataQuery({ filter: parseFilter(expression, resolve), orderBy: [], top: 10, skip: 0, count: false });
  if (!query.where) throw new Error('no where');
  const { sql, params } = dialect.sqlToQuery(query.where);
  return { sql, params };
}

/** Runs `action`, expects an InvalidODataQuery ApiError and returns it. */
export function catchODataError(action: () => unknown): ApiError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  expect(error.code).toBe('InvalidODataQuery');
  expect(error.status).toBe(400);
  return error;
}
