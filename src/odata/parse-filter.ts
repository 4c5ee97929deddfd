/** Recursive-descent parser for `$filter`: `or` < `and` < `not` < comparison. Pure. */
import { isGuid, normalizeDateTime } from '../entities/values';
import { odataError, tokenize } from './lexer';
import type { Token } from './lexer';
import type { ComparisonOperator, FilterNode, Literal, ODataField, ValueNode } from './types';

const COMPARISONS = new Set<string>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const BOOL_FUNCTIONS = new Set(['contains', 'startswith', 'endswith', 'substringof']);
const VALUE_FUNCTIONS: Record<string, { arity: number; argument: 'string' | 'datetime'; result: ValueType }> = {
  tolower: { arity: 1, argument: 'string', result: 'string' },
  toupper: { arity: 1, argument: 'string', result: 'string' },
  length: { arity: 1, argument: 'string', result: 'number' },
  year: { arity: 1, argument: 'datetime', result: 'number' },
  month: { arity: 1, argument: 'datetime', result: 'number' },
  day: { arity: 1, argument: 'datetime', result: 'number' },
};

type ValueType = 'string' | 'number' | 'boolean' | 'datetime' | 'guid' | 'null';

export type FieldResolver = (name: string) => ODataField | undefined;

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
      return VALUE_FUNCTIONS[node.name]?.result ?? 'string';
  }
}

class FilterParser {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly resolve: FieldResolver,
  ) {}

  parse(): FilterNode {
    const node = this.parseOr();
    const next = this.peek();
    if (next.type !== 'end') throw this.fail(next, `unexpected '${next.text}'`);
    return node;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)] as Token;
  }

  private advance(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index += 1;
    return token;
  }

  private fail(token: Token, reason: string) {
    return odataError('$filter', token.position, token.type === 'end' ? `${reason} (unexpected end of expression)` : reason);
  }

  private isKeyword(token: Token, word: string): boolean {
    return token.type === 'identifier' && token.text.toLowerCase() === word;
  }

  private expect(type: Token['type'], what: string): Token {
    const token = this.peek();
    if (token.type !== type) throw this.fail(token, `expected ${what}`);
    return this.advance();
  }

  private parseOr(): FilterNode {
    let left = this.parseAnd();
    while (this.isKeyword(this.peek(), 'or')) {
      this.advance();
      left = { type: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): FilterNode {
    let left = this.parseUnary();
    while (this.isKeyword(this.peek(), 'and')) {
      this.advance();
      left = { type: 'and', left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): FilterNode {
    if (this.isKeyword(this.peek(), 'not')) {
      this.advance();
      return { type: 'not', operand: this.parseUnary() };
    }
    return this.parsePredicate();
  }

  private parsePredicate(): FilterNode {
    const token = this.peek();
    if (token.type === 'lparen') {
      this.advance();
      const inner = this.parseOr();
      this.expect('rparen', "')'");
      return inner;
    }
    if (token.type === 'identifier' && BOOL_FUNCTIONS.has(token.text.toLowerCase()) && this.peek(1).type === 'lparen') {
      return this.parseBoolFunction();
    }
    const left = this.parseValue();
    const operatorToken = this.peek();
    if (operatorToken.type === 'identifier' && COMPARISONS.has(operatorToken.text.toLowerCase())) {
      this.advance();
      const right = this.parseValue();
      return this.buildComparison(operatorToken, operatorToken.text.toLowerCase() as ComparisonOperator, left, right);
    }
    if (this.isKeyword(operatorToken, 'in')) {
      this.advance();
      return this.parseIn(operatorToken, left);
    }
    if (valueTypeOf(left) === 'boolean') return { type: 'value', value: left };
    throw this.fail(operatorToken, 'expected a comparison operator (eq, ne, gt, ge, lt, le) or in');
  }

  private parseIn(at: Token, operand: ValueNode): FilterNode {
    this.expect('lparen', "'(' after in");
    const values: ValueNode[] = [];
    for (;;) {
      const value = this.parseValue();
      if (value.type !== 'literal') throw odataError('$filter', value.position, 'in (...) takes literal values only');
      this.checkComparable(at, operand, value, 'eq');
      values.push(value);
      const next = this.advance();
      if (next.type === 'rparen') break;
      if (next.type !== 'comma') throw this.fail(next, "expected ',' or ')' in the in list");
    }
    return { type: 'in', operand, values };
  }

  private parseBoolFunction(): FilterNode {
    const nameToken = this.advance();
    const name = nameToken.text.toLowerCase();
    const args = this.parseArguments();
    if (args.length !== 2) throw odataError('$filter', nameToken.position, `${name} takes 2 arguments`);
    for (const arg of args) {
      if (valueTypeOf(arg) !== 'string') throw odataError('$filter', arg.position, `${name} takes string arguments`);
    }
    // substringof('x', Field) is the OData v2 spelling of contains(Field, 'x').
    if (name === 'substringof') return { type: 'call', name: 'contains', args: [args[1] as ValueNode, args[0] as ValueNode] };
    return { type: 'call', name: name as 'contains' | 'startswith' | 'endswith', args };
  }

  private parseArguments(): ValueNode[] {
    this.expect('lparen', "'('");
    const args: ValueNode[] = [];
    if (this.peek().type === 'rparen') {
      this.advance();
      return args;
    }
    for (;;) {
      args.push(this.parseValue());
      const next = this.advance();
      if (next.type === 'rparen') return args;
      if (next.type !== 'comma') throw this.fail(next, "expected ',' or ')'");
    }
  }

  private parseValue(): ValueNode {
    const token = this.peek();
    switch (token.type) {
      case 'string':
        this.advance();
        return { type: 'literal', literal: { type: 'string', value: token.text }, position: token.position };
      case 'number': {
        this.advance();
        const value = Number(token.text);
        if (!Number.isFinite(value)) throw this.fail(token, `number ${token.text} is out of range`);
        return { type: 'literal', literal: { type: 'number', value, raw: token.text }, position: token.position };
      }
      case 'guid':
        this.advance();
        if (!isGuid(token.text)) throw this.fail(token, `'${token.text}' is not a GUID`);
        return { type: 'literal', literal: { type: 'guid', value: token.text.toLowerCase() }, position: token.position };
      case 'datetime': {
        this.advance();
        const normalized = normalizeDateTime(token.text);
        if (!normalized) throw this.fail(token, `'${token.text}' is not a valid date-time`);
        return { type: 'literal', literal: { type: 'datetime', value: normalized }, position: token.position };
      }
      case 'identifier':
        return this.parseIdentifierValue(token);
      default:
        throw this.fail(token, 'expected a property, a literal or a function');
    }
  }

  private parseIdentifierValue(token: Token): ValueNode {
    const word = token.text.toLowerCase();
    if (this.peek(1).type === 'lparen') {
      const spec = VALUE_FUNCTIONS[word];
      if (!spec) throw this.fail(token, `unknown function '${token.text}'`);
      this.advance();
      const args = this.parseArguments();
      if (args.length !== spec.arity) throw odataError('$filter', token.position, `${word} takes ${spec.arity} argument(s)`);
      const argument = args[0] as ValueNode;
      const type = valueTypeOf(argument);
      if (type !== spec.argument) throw odataError('$filter', argument.position, `${word} needs a ${spec.argument} argument, not ${type}`);
      return { type: 'function', name: word as 'tolower', args, position: token.position };
    }
    this.advance();
    if (word === 'true' || word === 'false') {
      return { type: 'literal', literal: { type: 'boolean', value: word === 'true' }, position: token.position };
    }
    if (word === 'null') return { type: 'literal', literal: { type: 'null' }, position: token.position };
    const field = this.resolve(token.text);
    if (!field) throw this.fail(token, `unknown property '${token.text}'`);
    return { type: 'property', field, position: token.position };
  }

  private buildComparison(at: Token, operator: ComparisonOperator, left: ValueNode, right: ValueNode): FilterNode {
    const [l, r] = this.coerce(left, right);
    this.checkComparable(at, l, r, operator);
    return { type: 'compare', operator, left: l, right: r };
  }

  /** A string literal compared with a date-time or GUID property is read as that type. */
  private coerce(left: ValueNode, right: ValueNode): [ValueNode, ValueNode] {
    return [this.coerceLiteral(left, right), this.coerceLiteral(right, left)];
  }

  private coerceLiteral(node: ValueNode, other: ValueNode): ValueNode {
    if (node.type !== 'literal' || node.literal.type !== 'string') return node;
    const target = valueTypeOf(other);
    if (target === 'datetime') {
      const normalized = normalizeDateTime(node.literal.value);
      if (!normalized) throw odataError('$filter', node.position, `'${node.literal.value}' is not a valid date-time`);
      return { ...node, literal: { type: 'datetime', value: normalized } };
    }
    if (target === 'guid' && isGuid(node.literal.value)) {
      return { ...node, literal: { type: 'guid', value: node.literal.value.toLowerCase() } };
    }
    if (target === 'number' && other.type === 'property' && other.field.enumMembers) {
      const wanted = node.literal.value.toLowerCase();
      const match = Object.entries(other.field.enumMembers).find(([name]) => name.toLowerCase() === wanted);
      if (match) return { ...node, literal: { type: 'number', value: match[1], raw: String(match[1]) } };
    }
    return node;
  }

  private checkComparable(at: Token, left: ValueNode, right: ValueNode, operator: ComparisonOperator): void {
    const lt = valueTypeOf(left);
    const rt = valueTypeOf(right);
    if (lt === 'null' || rt === 'null') {
      if (operator !== 'eq' && operator !== 'ne') throw this.fail(at, `null can only be compared with eq or ne`);
      return;
    }
    const same = lt === rt || (lt === 'guid' && rt === 'string') || (lt === 'string' && rt === 'guid');
    if (!same) throw this.fail(at, `cannot compare ${describe(left, lt)} with ${describe(right, rt)}`);
    if (lt === 'boolean' && operator !== 'eq' && operator !== 'ne') throw this.fail(at, 'booleans can only be compared with eq or ne');
  }
}

function describe(node: ValueNode, type: ValueType): string {
  return node.type === 'property' ? `${node.field.name} (${type})` : `a ${type}`;
}

export function parseFilter(expression: string, resolve: FieldResolver): FilterNode {
  const tokens = tokenize(expression);
  if (tokens.length === 1) throw odataError('$filter', 0, 'the expression is empty');
  return new FilterParser(tokens, resolve).parse();
}

export type { Literal };
