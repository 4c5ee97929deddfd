/**
 * Recursive-descent parser for `$filter`. Precedence, loosest first: `or`, `and`, `not`, comparison / `in` /
 * boolean function. Every error names the 1-based position of the fault. Pure.
 */
import { isGuid, MAX_YEAR, MIN_YEAR, normalizeDateTime } from '../validation/values';
import { odataError, tokenize } from './lexer';
import type { Token } from './lexer';
import { checkComparable, coerceLiteral, describeOperand, isValueFunction, VALUE_FUNCTIONS, valueTypeOf } from './typing';
import { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH } from './types';
import type { BoolFunction, ComparisonOperator, FilterNode, ODataField, ValueNode } from './types';

const COMPARISONS: readonly ComparisonOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
const toComparison = (word: string): ComparisonOperator | undefined => COMPARISONS.find((operator) => operator === word);
const BOOL_FUNCTIONS: readonly BoolFunction[] = ['contains', 'startswith', 'endswith'];
const toBoolFunction = (word: string): BoolFunction | undefined => BOOL_FUNCTIONS.find((name) => name === word);
/** `substringof('x', Field)` is the OData v2 spelling of `contains(Field, 'x')`. */
const isBoolFunctionName = (word: string): boolean => word === 'substringof' || toBoolFunction(word) !== undefined;
const SUPPORTED_FUNCTIONS = 'contains, startswith, endswith, substringof, tolower, toupper, length, year, month, day';

type FieldResolver = (name: string) => ODataField | undefined;

class FilterParser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly resolve: FieldResolver,
  ) {}

  parse(): FilterNode {
    const node = this.parseOr();
    const next = this.peek();
    if (next.type !== 'end') throw this.fail(next, `unexpected '${next.text}'; expected and, or or the end of the expression`);
    return node;
  }

  private peek(offset = 0): Token {
    const token = this.tokens[Math.min(this.index + offset, this.tokens.length - 1)];
    if (token === undefined) throw new Error('tokenize() always ends the tokens with an end token');
    return token;
  }

  private advance(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index += 1;
    return token;
  }

  private fail(token: Token, reason: string) {
    return odataError('$filter', token.position, token.type === 'end' ? `${reason} (the expression ended)` : reason);
  }

  private isKeyword(token: Token, word: string): boolean {
    return token.type === 'identifier' && token.text.toLowerCase() === word;
  }

  private expect(type: Token['type'], what: string): Token {
    const token = this.peek();
    if (token.type !== type) throw this.fail(token, `expected ${what}`);
    return this.advance();
  }

  /** Runs `parse` one nesting level deeper; refuses expressions nested deeper than MAX_FILTER_DEPTH. */
  private nested<T>(at: Token, parse: () => T): T {
    this.depth += 1;
    if (this.depth > MAX_FILTER_DEPTH) throw this.fail(at, `the expression is nested more than ${MAX_FILTER_DEPTH} levels deep`);
    const result = parse();
    this.depth -= 1;
    return result;
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
    const token = this.peek();
    if (this.isKeyword(token, 'not')) {
      this.advance();
      return this.nested(token, () => ({ type: 'not', operand: this.parseUnary() }));
    }
    return this.parsePredicate();
  }

  private parsePredicate(): FilterNode {
    const token = this.peek();
    if (token.type === 'lparen') {
      this.advance();
      const inner = this.nested(token, () => {
        const group = this.parseOr();
        this.expect('rparen', "')' to close the '(' at position " + String(token.position + 1));
        return group;
      });
      return this.parseBoolComparison(inner, 'a parenthesised condition');
    }
    if (token.type === 'identifier' && isBoolFunctionName(token.text.toLowerCase()) && this.peek(1).type === 'lparen') {
      return this.parseBoolComparison(this.parseBoolFunction(), 'a boolean function');
    }
    const left = this.parseValue();
    const operatorToken = this.peek();
    const operator = operatorToken.type === 'identifier' ? toComparison(operatorToken.text.toLowerCase()) : undefined;
    if (operator !== undefined) {
      this.advance();
      const right = this.parseValue();
      const l = coerceLiteral(left, right);
      const r = coerceLiteral(right, left);
      checkComparable(operatorToken.position, operator, l, r);
      return { type: 'compare', operator, left: l, right: r };
    }
    if (this.isKeyword(operatorToken, 'in')) {
      this.advance();
      return this.parseIn(operatorToken, left);
    }
    if (valueTypeOf(left) === 'boolean') return { type: 'value', value: left };
    throw this.fail(operatorToken, `expected a comparison operator (eq, ne, gt, ge, lt, le) or in after ${describeOperand(left)}`);
  }

  /**
   * `contains(...) eq true`, `(startswith(...) or startswith(...)) ne false` etc., as OData v2 clients write them:
   * a condition compared with a boolean literal is the condition itself or its `not`.
   */
  private parseBoolComparison(condition: FilterNode, what: string): FilterNode {
    const operator = this.peek();
    if (!this.isKeyword(operator, 'eq') && !this.isKeyword(operator, 'ne')) return condition;
    this.advance();
    const value = this.advance();
    const word = value.type === 'identifier' ? value.text.toLowerCase() : '';
    if (word !== 'true' && word !== 'false') throw this.fail(value, `${what} can only be compared with true or false`);
    const positive = (word === 'true') === this.isKeyword(operator, 'eq');
    return positive ? condition : { type: 'not', operand: condition };
  }

  private parseIn(at: Token, operand: ValueNode): FilterNode {
    const open = this.expect('lparen', "'(' after in");
    const values: ValueNode[] = [];
    for (;;) {
      const raw = this.parseValue();
      if (raw.type !== 'literal') throw odataError('$filter', raw.position, 'in (...) takes literal values only');
      const value = coerceLiteral(raw, operand);
      checkComparable(raw.position, 'eq', operand, value);
      values.push(value);
      const next = this.advance();
      if (next.type === 'rparen') break;
      if (next.type !== 'comma') throw this.fail(next, `expected ',' or ')' in the in list opened at position ${open.position + 1}`);
    }
    return { type: 'in', operand, values };
  }

  private parseBoolFunction(): FilterNode {
    const nameToken = this.advance();
    const name = nameToken.text.toLowerCase();
    const args = this.nested(nameToken, () => this.parseArguments());
    const [first, second] = args;
    if (args.length !== 2 || first === undefined || second === undefined)
      throw odataError('$filter', nameToken.position, `${name} takes 2 arguments, not ${args.length}`);
    for (const arg of [first, second]) {
      if (valueTypeOf(arg) !== 'string')
        throw odataError('$filter', arg.position, `${name} takes string arguments, not ${describeOperand(arg)}`);
    }
    if (name === 'substringof') return { type: 'call', name: 'contains', args: [second, first] };
    const call = toBoolFunction(name);
    if (call === undefined) throw this.fail(nameToken, `unknown function '${nameToken.text}'; supported: ${SUPPORTED_FUNCTIONS}`);
    return { type: 'call', name: call, args: [first, second] };
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
      if (next.type !== 'comma') throw this.fail(next, "expected ',' or ')' in the argument list");
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
        const outOfRange = !Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value));
        if (outOfRange) throw this.fail(token, `number ${token.text} is out of range`);
        return { type: 'literal', literal: { type: 'number', value, raw: token.text }, position: token.position };
      }
      case 'guid':
        this.advance();
        if (!isGuid(token.text)) throw this.fail(token, `'${token.text}' is not a GUID`);
        return { type: 'literal', literal: { type: 'guid', value: token.text.toLowerCase() }, position: token.position };
      case 'datetime': {
        this.advance();
        const normalized = normalizeDateTime(token.text);
        if (!normalized) throw this.fail(token, `'${token.text}' is not a valid ISO 8601 date-time (years ${MIN_YEAR} to ${MAX_YEAR})`);
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
    if (this.peek(1).type === 'lparen') return this.parseValueFunction(token, word);
    this.advance();
    if (word === 'true' || word === 'false')
      return { type: 'literal', literal: { type: 'boolean', value: word === 'true' }, position: token.position };
    if (word === 'null') return { type: 'literal', literal: { type: 'null' }, position: token.position };
    const field = this.resolve(token.text);
    if (!field) throw this.fail(token, `unknown property '${token.text}'`);
    return { type: 'property', field, position: token.position };
  }

  private parseValueFunction(token: Token, word: string): ValueNode {
    if (isBoolFunctionName(word)) throw this.fail(token, `${word}(...) is a condition, not a value`);
    if (!isValueFunction(word)) throw this.fail(token, `unknown function '${token.text}'; supported: ${SUPPORTED_FUNCTIONS}`);
    this.advance();
    const args = this.nested(token, () => this.parseArguments());
    const raw = args[0];
    if (args.length !== 1 || raw === undefined) throw odataError('$filter', token.position, `${word} takes 1 argument, not ${args.length}`);
    const spec = VALUE_FUNCTIONS[word];
    const arg = spec.argument === 'datetime' && raw.type === 'literal' && raw.literal.type === 'string' ? coerceToDateTime(raw) : raw;
    const type = valueTypeOf(arg);
    if (type !== spec.argument)
      throw odataError('$filter', arg.position, `${word} needs a ${spec.argument} argument, not ${describeOperand(arg)}`);
    return { type: 'function', name: word, arg, position: token.position };
  }
}

function coerceToDateTime(node: ValueNode & { type: 'literal' }): ValueNode {
  const text = node.literal.type === 'string' ? node.literal.value : '';
  const normalized = normalizeDateTime(text);
  if (!normalized)
    throw odataError('$filter', node.position, `'${text}' is not a valid ISO 8601 date-time (years ${MIN_YEAR} to ${MAX_YEAR})`);
  return { type: 'literal', literal: { type: 'datetime', value: normalized }, position: node.position };
}

export function parseFilter(expression: string, resolve: FieldResolver): FilterNode {
  if (expression.length > MAX_FILTER_LENGTH) {
    throw odataError('$filter', MAX_FILTER_LENGTH, `the expression is longer than ${MAX_FILTER_LENGTH} characters`);
  }
  const tokens = tokenize(expression);
  if (tokens.length === 1) throw odataError('$filter', 0, 'the expression is empty');
  return new FilterParser(tokens, resolve).parse();
}
