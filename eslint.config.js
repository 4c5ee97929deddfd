import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '**/.wrangler/',
      'worker-configuration.d.ts',
      'bench/results/',
      'coverage/',
      'public/',
      'test-results/',
      'test/tooling/.generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  {
    files: [
      'src/index.ts',
      'vitest.config.ts',
      'vitest.deno.config.ts',
      'vitest.browser.config.ts',
      'drizzle.config.ts',
      'drizzle.directory.config.ts',
      'eslint.config.js',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Browser code of the API reference page (served from public/assets/).
    files: ['src/openapi/docs-ui/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly' } },
  },
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'bench/**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        TextEncoder: 'readonly',
        setTimeout: 'readonly',
        Intl: 'readonly',
        Response: 'readonly',
        performance: 'readonly',
      },
    },
  },
);
