/**
 * The per-isolate cache of compiled statements (compiled.ts), private to this module: a statement is kept only as
 * the member of a family declared here (`defineCompiledFamily`: by owner, an entity store or a member kind, and
 * shape), every one of whose statements binds placeholders only (checked when it is compiled). Each family says which
 * shapes an owner can take and each owner is declared, so `listCompiledFamilies` lets a test compile every statement
 * the code keeps (test/integration/compiled-statements.workers.test.ts).
 */
import { isPlaceholderParam } from './compiled';
import type { CompiledStatement } from './compiled';

/** How a family compiles: its shapes, and the statements of one owner and shape. */
interface CompiledFamilyDefinition<O extends object, S, V> {
  readonly name: string;
  /** Every shape an owner can take (what decides the SQL text). */
  shapes(owner: O): readonly S[];
  /** The cache key of a shape. */
  keyOf(shape: S): string;
  compile(owner: O, shape: S): V;
  /** The statements of a compiled value (each must bind placeholders only). */
  statementsOf(value: V): readonly CompiledStatement<unknown>[];
}

interface CompiledFamily<O extends object, S, V> {
  /** The compiled value of the owner and shape: compiled on first use (with the SQL builder), then kept for the isolate. */
  read(owner: O, shape: S): V;
  /** Declares an owner the code compiles for (its shapes are then compiled by the test of every statement); `read` refuses any other. */
  declare(owner: O): void;
}

/** A family as the test of every compiled statement sees it: compiles each declared owner's every shape afresh. */
interface ListedFamily {
  readonly name: string;
  readonly owners: number;
  compileAll(): readonly CompiledStatement<unknown>[];
}

const families: ListedFamily[] = [];

/** Throws unless every parameter of every statement is a placeholder (the value of a cache entry, checked once). */
function requireKeepable(name: string, statements: readonly CompiledStatement<unknown>[]): void {
  for (const statement of statements) {
    if (statement.params.every(isPlaceholderParam)) continue;
    throw new Error(`${name}: a compiled statement binds a value ("${statement.sql}"): only placeholders may be kept.`);
  }
}

export function defineCompiledFamily<O extends object, S, V>(definition: CompiledFamilyDefinition<O, S, V>): CompiledFamily<O, S, V> {
  const cache = new WeakMap<O, Map<string, V>>();
  const owners = new Set<O>();
  const compileChecked = (owner: O, shape: S): V => {
    const value = definition.compile(owner, shape);
    requireKeepable(definition.name, definition.statementsOf(value));
    return value;
  };
  families.push({
    name: definition.name,
    get owners() {
      return owners.size;
    },
    compileAll: () =>
      [...owners].flatMap((owner) => definition.shapes(owner).flatMap((shape) => definition.statementsOf(compileChecked(owner, shape)))),
  });
  return {
    declare: (owner) => void owners.add(owner),
    read(owner, shape) {
      if (!owners.has(owner)) throw new Error(`${definition.name}: compiled for an owner never declared.`);
      let shapes = cache.get(owner);
      if (!shapes) cache.set(owner, (shapes = new Map()));
      const key = definition.keyOf(shape);
      let value = shapes.get(key);
      if (value === undefined) shapes.set(key, (value = compileChecked(owner, shape)));
      return value;
    },
  };
}

/** Every family of compiled statements (for the test that compiles them all). */
export function listCompiledFamilies(): readonly ListedFamily[] {
  return families;
}

/** One statement built without a database's builders (`QueryBuilder`), compiled once per isolate on first use. */
export function defineCompiledQuery<V extends CompiledStatement<unknown>>(name: string, compile: () => V): () => V {
  let value: V | undefined;
  const compileChecked = (): V => {
    const compiled = compile();
    requireKeepable(name, [compiled]);
    return compiled;
  };
  families.push({ name, owners: 1, compileAll: () => [compileChecked()] });
  return () => (value ??= compileChecked());
}
