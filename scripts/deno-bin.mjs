// The Deno runtime from npm (the `deno` devDependency) and the flags the Deno entry runs with.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

export const DENO_ENTRY = fileURLToPath(new URL('../src/deno.ts', import.meta.url));
/** The Deno test run's entry: the application plus the test bindings (test/deno-host/). */
export const DENO_TEST_ENTRY = fileURLToPath(new URL('../test/deno-host/entry.ts', import.meta.url));

/** Path of the deno executable; installs it from the platform package when npm skipped install scripts. */
export function resolveDenoExecutable() {
  const packageDir = dirname(require.resolve('deno/package.json'));
  const executable = join(packageDir, process.platform === 'win32' ? 'deno.exe' : 'deno');
  if (existsSync(executable)) return executable;
  return require('deno/install_api.cjs').runInstall();
}

/**
 * `deno run` arguments for `entry` (src/deno.ts by default). Sloppy imports: the application's imports have no file
 * extensions (as Wrangler's bundler allows). Writes only into the database's directory.
 */
export function buildDenoArgs(writableDirectory, entry = DENO_ENTRY) {
  return [
    'run',
    '--no-prompt',
    '--unstable-sloppy-imports',
    // request.signal aborts only when a client goes away, not after every successful response (Deno's coming default;
    // the API does not read it, and the legacy behaviour printed a deprecation notice at every start).
    '--unstable-no-legacy-abort',
    '--allow-net',
    '--allow-env',
    '--allow-read',
    `--allow-write=${writableDirectory}`,
    entry,
  ];
}

/** Environment for the Deno process (no update check noise). */
export function buildDenoEnv(extra) {
  return { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', ...extra };
}
