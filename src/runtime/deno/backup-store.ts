/**
 * Snapshots under Deno: a directory (`<data directory>/backups`, owner only) instead of an R2 bucket; each object a
 * file at its key's path (keys are `/`-separated, their tenant and org segments URI-encoded).
 */
import type { BackupStore } from '../../tenant/backup/store';
import { requireDenoRuntime } from './runtime';

const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;

function checkKey(key: string): void {
  if (key.split('/').some((segment) => segment === '..' || segment === '.') || key.startsWith('/'))
    throw new Error(`Bad backup key ${key}.`);
}

async function walk(folder: string, relative: string, keys: string[]): Promise<void> {
  const deno = requireDenoRuntime();
  try {
    for await (const entry of deno.readDir(folder)) {
      const key = `${relative}${entry.name}`;
      if (entry.isDirectory) await walk(`${folder}/${entry.name}`, `${key}/`, keys);
      else if (entry.isFile) keys.push(key);
    }
  } catch (error) {
    if (!(error instanceof Error && error.name === 'NotFound')) throw error;
  }
}

export function buildDirectoryBackupStore(root: string): BackupStore {
  return {
    async put(key, text) {
      checkKey(key);
      const deno = requireDenoRuntime();
      const folder = `${root}/${key.split('/').slice(0, -1).join('/')}`;
      await deno.mkdir(folder, { recursive: true, mode: DIRECTORY_MODE });
      await deno.writeTextFile(`${root}/${key}`, text, { mode: FILE_MODE });
    },
    async get(key) {
      checkKey(key);
      try {
        return await requireDenoRuntime().readTextFile(`${root}/${key}`);
      } catch (error) {
        if (error instanceof Error && error.name === 'NotFound') return null;
        throw error;
      }
    },
    async list(prefix) {
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      checkKey(folder);
      const keys: string[] = [];
      await walk(`${root}/${folder}`, folder, keys);
      return keys.filter((key) => key.startsWith(prefix)).sort();
    },
    async delete(keys) {
      const deno = requireDenoRuntime();
      for (const key of keys) {
        checkKey(key);
        try {
          await deno.remove(`${root}/${key}`);
        } catch (error) {
          if (!(error instanceof Error && error.name === 'NotFound')) throw error;
        }
      }
    },
  };
}
