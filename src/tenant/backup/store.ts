/**
 * Where snapshots are kept: an R2 bucket (binding `BACKUPS`) on Cloudflare, a directory under Deno
 * (src/runtime/deno/backup-store.ts). Objects are JSON text under `/`-separated keys.
 */

export interface BackupStore {
  put(key: string, text: string): Promise<void>;
  /** The object's text; null when there is none. */
  get(key: string): Promise<string | null>;
  /** Every key that starts with `prefix`, in key order. */
  list(prefix: string): Promise<string[]>;
  delete(keys: readonly string[]): Promise<void>;
}

/** The R2 bucket as a BackupStore. */
export function buildR2BackupStore(bucket: R2Bucket): BackupStore {
  return {
    async put(key, text) {
      await bucket.put(key, text, { httpMetadata: { contentType: 'application/json' } });
    },
    async get(key) {
      const object = await bucket.get(key);
      return object ? object.text() : null;
    },
    async list(prefix) {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix, ...(cursor === undefined ? {} : { cursor }) });
        keys.push(...page.objects.map((object) => object.key));
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor !== undefined);
      return keys.sort();
    },
    async delete(keys) {
      for (let start = 0; start < keys.length; start += 1000) await bucket.delete(keys.slice(start, start + 1000));
    },
  };
}
