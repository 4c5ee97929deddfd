/**
 * The Deno server's data (.deno-data/: every tenant's records, API client hashes, webhook signing secrets in
 * coordinators.sqlite and the WAL files) is owner only: the directory 0700, every file 0600, whatever the umask, and
 * files an earlier version left readable are restricted at start.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { launchDenoServer } from '../deno/server.js';
import type { DenoTestServer } from '../deno/server.js';

const parent = mkdtempSync(join(tmpdir(), 'erp-deno-modes-'));
let server: DenoTestServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(parent, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
/** Owner only: a file 0600, a folder in the data directory (import-files/) 0700. */
const ownerOnly = (path: string) => (statSync(path).isDirectory() ? '700' : '600');

it.skipIf(process.platform === 'win32')(
  'creates the data directory 0700 and its files 0600, WAL files included',
  { timeout: 60_000 },
  async () => {
    const directory = join(parent, 'fresh');
    // An earlier version's leftovers: a readable directory and file.
    mkdirSync(directory, { mode: 0o755 });
    chmodSync(directory, 0o755);
    writeFileSync(join(directory, 'notes.txt'), 'x', { mode: 0o644 });
    chmodSync(join(directory, 'notes.txt'), 0o644);
    server = await launchDenoServer({}, directory);
    // A write, so that the WAL files hold something.
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    const files = readdirSync(directory);
    expect(files).toEqual(
      expect.arrayContaining(['directory.sqlite', 'coordinators.sqlite', 'tenant_db_1.sqlite', 'directory.sqlite-wal']),
    );
    expect(modeOf(directory).toString(8)).toBe('700');
    for (const file of files) expect([file, modeOf(join(directory, file)).toString(8)]).toEqual([file, ownerOnly(join(directory, file))]);
  },
);

it.skipIf(process.platform === 'win32')('creates a missing data directory 0700', { timeout: 60_000 }, async () => {
  await server?.stop();
  const directory = join(parent, 'new', 'data');
  server = await launchDenoServer({}, directory);
  expect(modeOf(directory).toString(8)).toBe('700');
  for (const file of readdirSync(directory))
    expect([file, modeOf(join(directory, file)).toString(8)]).toEqual([file, ownerOnly(join(directory, file))]);
});
