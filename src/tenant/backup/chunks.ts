/** What restores share to move rows: a snapshot chunk read back (checked), and JSON texts written in bounded groups. */
import { hashText } from './snapshot-steps';
import type { BackupStore } from './store';

/** A snapshot chunk's text, after checking its SHA-256 against the manifest's. */
export async function readSnapshotChunk(store: BackupStore, chunk: { key: string; sha256: string }): Promise<string> {
  const text = await store.get(chunk.key);
  if (text === null || (await hashText(text)) !== chunk.sha256) throw new Error(`The snapshot object ${chunk.key} is missing or damaged.`);
  return text;
}

/** The bytes of JSON one statement binds at most (the history's images and a snapshot chunk alike). */
const GROUP_BYTES = 400_000;

/** Writes JSON texts as arrays of at most GROUP_BYTES (a larger text alone); answers the statements run. */
export async function writeInGroups(texts: readonly string[], write: (array: string) => Promise<unknown>): Promise<number> {
  let group: string[] = [];
  let bytes = 0;
  let statements = 0;
  const flush = async () => {
    if (group.length === 0) return;
    await write(`[${group.join(',')}]`);
    statements += 1;
    group = [];
    bytes = 0;
  };
  for (const text of texts) {
    if (bytes + text.length > GROUP_BYTES) await flush();
    group.push(text);
    bytes += text.length;
  }
  await flush();
  return statements;
}
