/**
 * The shape check (scripts/check-shape.mjs, run by `npm run lint`) on small made-up sources: long files and
 * functions, exports no other file imports, the ratchet of known violations. The repository itself is checked by
 * `npm run lint`.
 */
import { describe, expect, it } from 'vitest';
import { checkShape, compareWithKnown, resolveSpecifier } from '../../scripts/check-shape.mjs';

const lines = (count: number, text = '// line') => Array.from({ length: count }, () => text).join('\n') + '\n';

/** A function declaration of exactly `count` lines. */
const functionOf = (name: string, count: number) => `function ${name}() {\n${lines(count - 2, '  void 0;')}}\n`;

const keysOf = (files: { path: string; text: string }[], options?: Parameters<typeof checkShape>[1]) =>
  checkShape(files, { entryFiles: new Map(), ...options }).map((problem) => problem.key);

describe('file and function lengths', () => {
  it('counts the lines an editor shows and refuses a file of src/ over the limit, not one at it', () => {
    expect(keysOf([{ path: 'src/a.ts', text: lines(300) }])).toEqual([]);
    expect(keysOf([{ path: 'src/a.ts', text: lines(301) }])).toEqual(['src/a.ts: over 300 lines']);
    expect(keysOf([{ path: 'src/a.ts', text: lines(300).trimEnd() + '\n// no final newline' }])).toEqual(['src/a.ts: over 300 lines']);
  });

  it('checks src/ only: tests, scripts and declaration files may be longer', () => {
    const long = lines(400);
    const files = ['test/a.test.ts', 'scripts/a.mjs', 'src/types.d.ts'].map((path) => ({ path, text: long }));
    expect(keysOf(files)).toEqual([]);
  });

  it('measures every kind of function from its first line to its last, nested ones included in the outer', () => {
    const body = lines(59, '    void 0;');
    const text = [
      functionOf('fits', 60),
      functionOf('tooLong', 61),
      `export const arrow = () => {\n${body}  return 1;\n};\n`,
      `const expression = function () {\n${body}  return 1;\n};\n`,
      `class Holder {\n  method() {\n${lines(58, '    void 0;')}  }\n  get value() {\n${body}    return 1;\n  }\n}\n`,
      `const routes = [{ handle: async () => {\n${body}} }];\n`,
      `const outer = () => {\n  return [1].map(() => {\n${body}    return 1;\n  });\n};\n`,
      'export const used = [arrow, expression, Holder, routes, outer];\n',
    ].join('');
    expect(
      keysOf(
        [
          { path: 'src/a.ts', text },
          { path: 'src/b.ts', text: "import { arrow, used } from './a';\nvoid [arrow, used];\n" },
        ],
        { maxFileLines: 1000 },
      ),
    ).toEqual([
      'src/a.ts: function tooLong over 60 lines',
      'src/a.ts: function arrow over 60 lines',
      'src/a.ts: function expression over 60 lines',
      'src/a.ts: function Holder.value over 60 lines',
      'src/a.ts: function routes.handle over 60 lines',
      'src/a.ts: function outer over 60 lines',
      'src/a.ts: function outer.<arrow> over 60 lines',
    ]);
  });

  it('tells functions of the same name apart in order', () => {
    const handler = `  handle: () => {\n${lines(60, '    void 0;')}  },\n`;
    const text = `export const routes = [\n  {\n${handler}  },\n  {\n${handler}  },\n];\n`;
    expect(
      keysOf([
        { path: 'src/a.ts', text },
        { path: 'test/a.test.ts', text: "import { routes } from '../src/a';\n" },
      ]),
    ).toEqual(['src/a.ts: function routes.handle over 60 lines', 'src/a.ts: function routes.handle #2 over 60 lines']);
  });
});

describe('exports used only in their own file', () => {
  const module = [
    'export function imported() {}',
    'export const reExported = 1;',
    'export interface OnlyHere { readonly a: number }',
    'export type Merged = { readonly b: number };',
    'export interface Augmented { readonly c: number }',
    'export default function main() {}',
    'function local() {}',
    'export { local as renamed };',
    'export const onlyHere: OnlyHere = { a: 1 };',
  ].join('\n');

  it('names every export no other file imports, re-exports or merges into', () => {
    const files = [
      { path: 'src/m.ts', text: module },
      {
        path: 'src/user.ts',
        text: "import main, { imported } from './m';\nimport type { Merged } from './m.js';\nvoid [main, imported];\n",
      },
      { path: 'src/barrel.ts', text: "export { reExported as again } from './m';\n" },
      { path: 'test/barrel.test.ts', text: "import { again } from '../src/barrel';\nvoid again;\n" },
      { path: 'src/augment.ts', text: "declare module './m' {\n  interface Augmented { readonly d: number }\n}\nexport {};\n" },
    ];
    expect(keysOf(files)).toEqual([
      'src/m.ts: export OnlyHere used only in its own file',
      'src/m.ts: export renamed used only in its own file',
      'src/m.ts: export onlyHere used only in its own file',
    ]);
  });

  it('counts a test as an importer, and a namespace import, export * or import() as using every name', () => {
    for (const use of [
      "import { onlyHere, OnlyHere, renamed } from '../src/m';",
      "import * as m from '../src/m';",
      "export * from '../src/m';",
      "const m = await import('../src/m');",
      "type T = typeof import('../src/m');",
    ]) {
      const problems = keysOf([
        { path: 'src/m.ts', text: module },
        { path: 'test/m.test.ts', text: use },
      ]);
      expect(
        problems.filter((key) => /OnlyHere|renamed|onlyHere/.test(key)),
        use,
      ).toEqual([]);
    }
  });

  it('leaves entry files alone: a tool loads them', () => {
    const files = [{ path: 'src/index.ts', text: 'export default {};\nexport class Coordinator {}\n' }];
    expect(keysOf(files)).toEqual([
      'src/index.ts: export default used only in its own file',
      'src/index.ts: export Coordinator used only in its own file',
    ]);
    expect(checkShape(files, { entryFiles: new Map([['src/index.ts', 'the Worker']]) })).toEqual([]);
  });

  it('resolves specifiers as the bundler and Node do', () => {
    const files = new Set(['src/a.ts', 'src/dir/index.ts', 'scripts/tool.mjs', 'scripts/tool.d.mts']);
    expect(resolveSpecifier('src/b.ts', './a', files)).toBe('src/a.ts');
    expect(resolveSpecifier('src/b.ts', './a.js', files)).toBe('src/a.ts');
    expect(resolveSpecifier('src/b.ts', './dir', files)).toBe('src/dir/index.ts');
    expect(resolveSpecifier('test/x.test.ts', '../scripts/tool.mjs', files)).toBe('scripts/tool.mjs');
    expect(resolveSpecifier('src/b.ts', 'valibot', files)).toBeUndefined();
    expect(resolveSpecifier('src/b.ts', './missing', files)).toBeUndefined();
  });
});

describe('the ratchet of known violations', () => {
  const problems = [
    { key: 'src/a.ts: over 300 lines', message: 'src/a.ts: 320 lines (over 300)' },
    { key: 'src/b.ts: function f over 60 lines', message: 'src/b.ts:3: function f has 70 lines (over 60)' },
  ];

  it('fails a violation it does not list', () => {
    expect(compareWithKnown(problems, ['src/a.ts: over 300 lines'])).toEqual({ unexpected: [problems[1]], fixed: [] });
  });

  it('fails a listed violation that is gone, so the list only shrinks', () => {
    expect(compareWithKnown(problems, [...problems.map((problem) => problem.key), 'src/c.ts: over 300 lines'])).toEqual({
      unexpected: [],
      fixed: ['src/c.ts: over 300 lines'],
    });
  });
});
