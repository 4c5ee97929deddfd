// The shape of src/ (run by `npm run lint`, so CI checks it; issue 27, point 5):
// - no file of src/ over 300 lines;
// - no function of src/ over 60 lines: function declarations, methods, constructors, accessors, arrow functions and
//   function expressions, each counted from the line it starts on to the line it ends on (the functions nested in it
//   included);
// - no exported name of src/ that no other file imports or re-exports. Every TypeScript and JavaScript file of the
//   repository counts as an importer, test/ included: an export that only a unit test imports is part of the
//   interface of a module tested on its own, and stays. `import * as`, `export * from` and `import('...')` use every
//   name of the module; `declare module '...' { ... }` uses the names it merges into. The exports of the ENTRY_FILES
//   are used by the tool that loads them, not by an import.
// Parsing only (the `typescript` package's parser, no type check), so it runs in about a second.
// `node scripts/check-shape.mjs --list` prints every violation, the known ones included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 60;

/** Files of src/ loaded by a tool rather than imported: every export of theirs is used. */
export const ENTRY_FILES = new Map([
  ['src/index.ts', 'the Worker: wrangler.toml `main` (its default export and the Durable Object class)'],
  ['src/schema.ts', 'drizzle-kit: drizzle.config.ts `schema` (every tenant table)'],
  ['src/tenant/placement/directory-schema.ts', 'drizzle-kit: drizzle.directory.config.ts `schema`'],
  ['src/resources/trigger-tool.ts', 'scripts/triggers.mjs, which loads it by path'],
]);

/**
 * The ratchet: violations tolerated while a reshaping is under way (issue 27 had 86 when the check came; all fixed).
 * It only shrinks: a violation it does not list fails the check, and so does a listed one that is gone.
 */
export const KNOWN_VIOLATIONS = [];

const SOURCE = /\.(?:ts|mts|js|mjs)$/;
/** Never read: installed packages, local state, and built or generated output. */
const SKIPPED_NAMES = new Set(['node_modules', '.git', '.wrangler', '.deno-data']);
const SKIPPED_PATHS = new Set(['public', 'coverage', 'test-results', 'bench/results']);

const isSubject = (file) => file.startsWith('src/') && file.endsWith('.ts') && !file.endsWith('.d.ts');

function parseSource(file) {
  const kind = /\.m?ts$/.test(file.path) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  return ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, kind);
}

const lineOf = (source, position) => source.getLineAndCharacterOfPosition(position).line + 1;

function countLines(source) {
  const last = lineOf(source, source.text.length);
  return source.text.endsWith('\n') ? last - 1 : last;
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.FunctionExpression,
]);

function propertyNameText(name) {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return '[computed]';
}

/** What a declaration is called, where it has a name a reader would look for. */
function labelDeclaration(node) {
  if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isClassDeclaration(node) || ts.isClassExpression(node))
    return node.name?.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isVariableDeclaration(node)) return ts.isIdentifier(node.name) ? node.name.text : undefined;
  if (
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isPropertyAssignment(node) ||
    ts.isPropertyDeclaration(node)
  )
    return propertyNameText(node.name);
  return undefined;
}

/** A function's name qualified by what encloses it (`buildApp`, `importRoutes.handle`, `openHost.<arrow>`). */
function nameFunction(node) {
  const parts = [];
  for (let current = node; current && !ts.isSourceFile(current); current = current.parent) {
    const label = labelDeclaration(current);
    if (label !== undefined && parts[0] !== label) parts.unshift(label);
    else if (current === node && label === undefined && labelDeclaration(node.parent) === undefined)
      parts.unshift(ts.isArrowFunction(node) ? '<arrow>' : '<function>');
  }
  return parts.join('.');
}

function listFunctions(source) {
  const found = [];
  const seen = new Map();
  const visit = (node) => {
    if (FUNCTION_KINDS.has(node.kind) && node.body) {
      const line = lineOf(source, node.getStart(source));
      const base = nameFunction(node);
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      found.push({ name: count === 1 ? base : `${base} #${count}`, line, lines: lineOf(source, node.getEnd()) - line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const hasModifier = (node, kind) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === kind);

function collectBindingNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : collectBindingNames(element.name)));
}

/** The names a module exports, each with the line that exports it. */
function listExports(source) {
  const found = [];
  for (const statement of source.statements) {
    const line = lineOf(source, statement.getStart(source));
    if (ts.isExportAssignment(statement)) {
      if (!statement.isExportEquals) found.push({ name: 'default', line });
    } else if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) for (const element of clause.elements) found.push({ name: element.name.text, line });
      else if (clause && ts.isNamespaceExport(clause)) found.push({ name: clause.name.text, line });
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) found.push({ name: 'default', line });
      else if (ts.isVariableStatement(statement))
        for (const declaration of statement.declarationList.declarations)
          for (const name of collectBindingNames(declaration.name)) found.push({ name, line });
      else if (statement.name && ts.isIdentifier(statement.name)) found.push({ name: statement.name.text, line });
    }
  }
  return found;
}

/** The names a module merges into another with `declare module '...' { ... }`. */
function listDeclaredNames(block) {
  return block.statements.flatMap((statement) => {
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((item) => collectBindingNames(item.name));
    return statement.name && ts.isIdentifier(statement.name) ? [statement.name.text] : [];
  });
}

/** Every (module specifier, name) a file imports or re-exports; `*` stands for every name of the module. */
function listUses(source) {
  const uses = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (clause?.name) uses.push({ from, name: 'default' });
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) uses.push({ from, name: '*' });
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) uses.push({ from, name: (element.propertyName ?? element.name).text });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      const clause = node.exportClause;
      if (clause && ts.isNamedExports(clause))
        for (const element of clause.elements) uses.push({ from, name: (element.propertyName ?? element.name).text });
      else uses.push({ from, name: '*' });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) uses.push({ from: argument.text, name: '*' });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      let qualifier = node.qualifier;
      while (qualifier && ts.isQualifiedName(qualifier)) qualifier = qualifier.left;
      uses.push({ from: node.argument.literal.text, name: qualifier ? qualifier.text : '*' });
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name) && node.body && ts.isModuleBlock(node.body)) {
      for (const name of listDeclaredNames(node.body)) uses.push({ from: node.name.text, name });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

/** The file a relative specifier names, among the given files (the resolution of the project's bundler and Node). */
export function resolveSpecifier(fromFile, specifier, files) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const candidates = [base, `${base}.ts`, `${base}.mts`, `${base}/index.ts`, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts')];
  return candidates.find((candidate) => files.has(candidate));
}

/**
 * Every shape violation among `files` ({ path: relative to the repository, with `/`; text }): the subjects are the
 * `.ts` files of src/, every file counts as an importer. Each answer has a stable `key` (no line numbers, no sizes:
 * what KNOWN_VIOLATIONS lists) and a `message` for the reader.
 */
export function checkShape(files, { entryFiles = ENTRY_FILES, maxFileLines = MAX_FILE_LINES, maxFunctionLines = MAX_FUNCTION_LINES } = {}) {
  const parsed = files.map((file) => ({ path: file.path, source: parseSource(file) }));
  const known = new Set(files.map((file) => file.path));
  const used = new Map();
  for (const { path: file, source } of parsed) {
    for (const use of listUses(source)) {
      const target = resolveSpecifier(file, use.from, known);
      if (!target || target === file) continue;
      if (!used.has(target)) used.set(target, new Set());
      used.get(target).add(use.name);
    }
  }
  const problems = [];
  for (const { path: file, source } of parsed.filter(({ path: file }) => isSubject(file))) {
    const lines = countLines(source);
    if (lines > maxFileLines)
      problems.push({ key: `${file}: over ${maxFileLines} lines`, message: `${file}: ${lines} lines (over ${maxFileLines})` });
    for (const fn of listFunctions(source).filter((item) => item.lines > maxFunctionLines))
      problems.push({
        key: `${file}: function ${fn.name} over ${maxFunctionLines} lines`,
        message: `${file}:${fn.line}: function ${fn.name} has ${fn.lines} lines (over ${maxFunctionLines})`,
      });
    if (entryFiles.has(file)) continue;
    const names = used.get(file) ?? new Set();
    if (names.has('*')) continue;
    for (const exported of listExports(source).filter((item) => !names.has(item.name)))
      problems.push({
        key: `${file}: export ${exported.name} used only in its own file`,
        message: `${file}:${exported.line}: export ${exported.name} is imported by no other file (drop the export, or the code)`,
      });
  }
  return problems;
}

/** The ratchet: the violations `known` does not list, and the listed ones that are gone. */
export function compareWithKnown(problems, known) {
  const found = new Set(problems.map((problem) => problem.key));
  const listed = new Set(known);
  return {
    unexpected: problems.filter((problem) => !listed.has(problem.key)),
    fixed: [...listed].filter((key) => !found.has(key)),
  };
}

function listRepositoryFiles(root, directory = root) {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    const relative = path.relative(root, full).split(path.sep).join('/');
    if (statSync(full).isDirectory()) return SKIPPED_NAMES.has(name) || SKIPPED_PATHS.has(relative) ? [] : listRepositoryFiles(root, full);
    return SOURCE.test(name) ? [relative] : [];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files = listRepositoryFiles(root).map((file) => ({ path: file, text: readFileSync(path.join(root, file), 'utf8') }));
  const problems = checkShape(files);
  if (process.argv.includes('--list')) for (const problem of problems) console.log(problem.message);
  const { unexpected, fixed } = compareWithKnown(problems, KNOWN_VIOLATIONS);
  if (unexpected.length > 0)
    console.error(`Shape of src/ (scripts/check-shape.mjs):\n${unexpected.map((p) => `  ${p.message}`).join('\n')}`);
  if (fixed.length > 0)
    console.error(`Fixed, so remove from KNOWN_VIOLATIONS in scripts/check-shape.mjs:\n${fixed.map((key) => `  ${key}`).join('\n')}`);
  if (unexpected.length > 0 || fixed.length > 0) process.exit(1);
  const subjects = files.filter((file) => isSubject(file.path)).length;
  console.log(
    `Shape of src/: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}, no export only its own file uses, ` +
      `among ${subjects} files` +
      (KNOWN_VIOLATIONS.length > 0 ? ` (but the ${KNOWN_VIOLATIONS.length} known violations of KNOWN_VIOLATIONS).` : '.'),
  );
}
