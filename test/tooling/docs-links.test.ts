/**
 * Every link of the README and docs/ resolves: a relative link names a file of the repository, an anchor a heading of
 * its page (as GitHub makes anchors); the README stays short (at most 400 lines) and starts with its quickstart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAllLinks, checkLinks, listAnchors, slugify } from '../../scripts/check-links.mjs';
import { PROJECT_ROOT } from './dev-server.js';

describe('links of the README and docs/', () => {
  it('every file and anchor they name exists', () => {
    expect(checkAllLinks()).toEqual([]);
  });

  it('makes anchors as GitHub does, and finds a missing file or heading', () => {
    expect(slugify('Operator API (`/admin`)')).toBe('operator-api-admin');
    expect(slugify('Batch: `$batch`')).toBe('batch-batch');
    expect(slugify('Point-in-time restore of one tenant/org')).toBe('point-in-time-restore-of-one-tenantorg');
    expect([...listAnchors('# A\n## B b\n```sh\n# not a heading\n```\n## B b\n')]).toEqual(['a', 'b-b', 'b-b-1']);
    const read = (file: string) => (file === 'docs/a.md' ? '# Here\n' : null);
    expect(checkLinks('README.md', '[x](docs/a.md#here) [y](docs/a.md#gone) [z](docs/b.md) [w](https://e.org/#q)', read)).toEqual([
      'README.md:1: docs/a.md#gone: docs/a.md has no heading #gone',
      'README.md:1: docs/b.md: no file docs/b.md',
    ]);
  });

  it("docs/running.md's sample start applies as many migrations as there are", () => {
    const running = readFileSync(path.join(PROJECT_ROOT, 'docs/running.md'), 'utf8');
    const count = (folder: string) =>
      readdirSync(path.join(PROJECT_ROOT, 'migrations', folder)).filter((name) => name.endsWith('.sql')).length;
    expect(running).toContain(`Migrations: DIRECTORY ${count('directory')} applied`);
    expect(running).toContain(`Migrations: TENANT_DB_1 ${count('tenant')} applied`);
  });

  it('the README is at most 400 lines and opens with its quickstart', () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(400);
    expect(readme.split('\n## ')[1]?.startsWith('Quickstart')).toBe(true);
  });
});
