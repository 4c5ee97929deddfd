/** Types of `$filter` operands: what each node yields, literal coercion and comparability checks. Pure. */
import { isGuid, MAX_YEAR, MIN_YEAR, normalizeDateTime } from '../validation/values';
import { odataError } from './lexer';
import type { ComparisonOperator, Literal, ValueFunction, ValueNode } from './types';

type ValueType = 'string' | 'number' | 'boolean' | 'datetime' | 'guid' | 'null';

interface ValueFunctionSpec {
  readonly argument: 'string' | 'datetime';
  readonly result: ValueType;
}

/** One-argument functions that yield a value. */
export const VALUE_FUNCTIONS: Readonly<Record<ValueFunction, ValueFunctionSpec>> = {
  tolower: { argument: 'string', result: 'string' },
  toupper: { argument: 'string', result: 'string' },
  length: { argument: 'string', result: 'number' },
  year: { argument: 'datetime', result: 'number' },
  month: { argument: 'datetime', result: 'number' },
  day: { argument: 'datetime', result: 'number' },
};

export function isValueFunction(name: string): name is ValueFunction {
  return Object.prototype.hasOwnProperty.call(VALUE_FUNCTIONS, name);
}

export function valueTypeOf(node: ValueNode): ValueType {
  switch (node.type) {
    case 'property':
      switch (node.field.kind) {
        case 'int':
        case 'decimal':
        case 'enum':
          return 'number';
        case 'bool':
          return 'boolean';
        case 'datetime':
          return 'datetime';
        case 'guid':
          return 'guid';
        default:
          return 'string';
      }
    case 'literal':
      return node.literal.type;
    case 'function':
      return VALUE_FUNCTIONS[node.name].result;
  }
}

export function describeOperand(node: ValueNode): string {
  const type = valueTypeOf(node);
  if (node.type === 'property') return `${node.field.name} (${type})`;
  if (node.type === 'function') return `${node.name}(...) (${type})`;
  return type === 'null' ? 'null' : `a ${type} literal`;
}

function withLiteral(node: ValueNode & { type: 'literal' }, literal: Literal): ValueNode {
  return { type: 'literal', literal, position: node.position };
}

/**
 * A string literal compared with a date-time, GUID or enum operand is read as that type:
 * `createdOn ge '2026-01-01'`, `id eq '...'`, `emailTemplateType eq 'HTML'`; compared with a culture or currency
 * key, in the key's canonical spelling (`culture eq 'PT-pt'` is `culture eq 'pt-PT'`).
 */
export function coerceLiteral(node: ValueNode, other: ValueNode): ValueNode {
  if (node.type !== 'literal' || node.literal.type !== 'string') return node;
  const text = node.literal.value;
  const target = valueTypeOf(other);
  if (target === 'datetime') {
    const normalized = normalizeDateTime(text);
    if (!normalized)
      throw odataError('$filter', node.position, `'${text}' is not a valid ISO 8601 date-time (years ${MIN_YEAR} to ${MAX_YEAR})`);
    return withLiteral(node, { type: 'datetime', value: normalized });
  }
  if (target === 'guid' && isGuid(text)) return withLiteral(node, { type: 'guid', value: text.toLowerCase() });
  if (target === 'number' && other.type === 'property' && other.field.enumMembers) {
    const members = Object.entries(other.field.enumMembers);
    const match = members.find(([name]) => name.toLowerCase() === text.trim().toLowerCase());
    if (!match) {
      const allowed = members.map(([name, value]) => `${name} (${value})`).join(', ');
      throw odataError('$filter', node.position, `'${text}' is not a value of ${other.field.name}; use one of ${allowed}`);
    }
    return withLiteral(node, { type: 'number', value: match[1], raw: String(match[1]) });
  }
  if (other.type === 'property' && other.field.canonicalKey)
    return withLiteral(node, { type: 'string', value: other.field.canonicalKey(text) });
  return node;
}

/** Throws unless `left operator right` is a meaningful comparison. */
export function checkComparable(position: number, operator: ComparisonOperator, left: ValueNode, right: ValueNode): void {
  const lt = valueTypeOf(left);
  const rt = valueTypeOf(right);
  if (lt === 'null' || rt === 'null') {
    if (operator !== 'eq' && operator !== 'ne')
      throw odataError('$filter', position, `null can only be compared with eq or ne, not ${operator}`);
    return;
  }
  const same = lt === rt || (lt === 'guid' && rt === 'string') || (lt === 'string' && rt === 'guid');
  if (!same) throw odataError('$filter', position, `type mismatch: cannot compare ${describeOperand(left)} with ${describeOperand(right)}`);
  if (lt === 'boolean' && operator !== 'eq' && operator !== 'ne') {
    throw odataError('$filter', position, `booleans can only be compared with eq or ne, not ${operator}`);
  }
}
