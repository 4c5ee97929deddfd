/**
 * An in-memory KV namespace with Workers KV's rules: values are text or bytes, `expirationTtl` (at least
 * 60 s) or `expiration` (epoch seconds) make entries expire, metadata rides along, `list` is sorted by
 * key with prefix, limit and cursor. It lives as long as the process (KV is a cache here).
 */

const MIN_TTL_SECONDS = 60;
const MAX_KEY_BYTES = 512;
const MAX_LIST_LIMIT = 1000;

type ValueType = 'text' | 'json' | 'arrayBuffer' | 'stream';
type PutValue = string | ArrayBuffer | ArrayBufferView | ReadableStream;

interface Entry {
  readonly bytes: Uint8Array;
  readonly expiration?: number;
  readonly metadata?: unknown;
}

const VALUE_TYPES: readonly ValueType[] = ['text', 'json', 'arrayBuffer', 'stream'];

/** `get`'s second argument: a type name, or options with `type`; text by default. */
function parseValueType(typeOrOptions: unknown): ValueType {
  const type = typeof typeOrOptions === 'object' && typeOrOptions !== null && 'type' in typeOrOptions ? typeOrOptions.type : typeOrOptions;
  return VALUE_TYPES.find((name) => name === type) ?? 'text';
}

function checkKey(key: string): void {
  if (key === '' || key === '.' || key === '..') throw new Error(`KV key "${key}" is not allowed.`);
  if (new TextEncoder().encode(key).byteLength > MAX_KEY_BYTES) throw new Error(`KV keys must be at most ${MAX_KEY_BYTES} bytes.`);
}

async function toBytes(value: PutValue): Promise<Uint8Array> {
  if (typeof value === 'string') return new TextEncoder().encode(value);
  if (value instanceof ArrayBuffer) return new Uint8Array(value.slice(0));
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  return new Uint8Array(await new Response(value).arrayBuffer());
}

function decode(bytes: Uint8Array, type: ValueType): unknown {
  if (type === 'arrayBuffer') return bytes.slice().buffer;
  if (type === 'stream') return new Response(bytes.slice()).body;
  const text = new TextDecoder().decode(bytes);
  return type === 'json' ? JSON.parse(text) : text;
}

export class MemoryKv {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly nowSeconds: () => number) {}

  private findEntry(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiration !== undefined && entry.expiration <= this.nowSeconds()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private parseExpiration(options: KVNamespacePutOptions | undefined): number | undefined {
    const now = this.nowSeconds();
    if (options?.expirationTtl !== undefined) {
      if (!(options.expirationTtl >= MIN_TTL_SECONDS))
        throw new Error(
          `KV PUT failed: 400 Invalid expiration_ttl of ${options.expirationTtl}. Expiration TTL must be at least ${MIN_TTL_SECONDS}.`,
        );
      return now + Math.floor(options.expirationTtl);
    }
    if (options?.expiration !== undefined) {
      if (!(options.expiration >= now + MIN_TTL_SECONDS))
        throw new Error(
          `KV PUT failed: 400 Invalid expiration of ${options.expiration}. Expiration times must be at least ${MIN_TTL_SECONDS} seconds in the future.`,
        );
      return Math.floor(options.expiration);
    }
    return undefined;
  }

  async get(key: string | string[], typeOrOptions?: unknown): Promise<unknown> {
    const type = parseValueType(typeOrOptions);
    if (Array.isArray(key)) return new Map(key.map((name) => [name, this.findValue(name, type)]));
    return this.findValue(key, type);
  }

  private findValue(key: string, type: ValueType): unknown {
    const entry = this.findEntry(key);
    return entry ? decode(entry.bytes, type) : null;
  }

  async getWithMetadata(key: string | string[], typeOrOptions?: unknown): Promise<unknown> {
    const type = parseValueType(typeOrOptions);
    const read = (name: string) => {
      const entry = this.findEntry(name);
      return { value: entry ? decode(entry.bytes, type) : null, metadata: entry?.metadata ?? null, cacheStatus: null };
    };
    if (Array.isArray(key)) return new Map(key.map((name) => [name, read(name)]));
    return read(key);
  }

  async put(key: string, value: PutValue, options?: KVNamespacePutOptions): Promise<void> {
    checkKey(key);
    const expiration = this.parseExpiration(options);
    const bytes = await toBytes(value);
    const metadata: unknown = options?.metadata === undefined || options.metadata === null ? undefined : structuredClone(options.metadata);
    this.entries.set(key, { bytes, ...(expiration === undefined ? {} : { expiration }), ...(metadata === undefined ? {} : { metadata }) });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async list(options: KVNamespaceListOptions = {}): Promise<KVNamespaceListResult<unknown>> {
    const prefix = options.prefix ?? '';
    const limit = Math.min(Math.max(1, options.limit ?? MAX_LIST_LIMIT), MAX_LIST_LIMIT);
    const after = options.cursor ? decodeURIComponent(atob(options.cursor)) : undefined;
    const names = [...this.entries.keys()]
      .filter((name) => name.startsWith(prefix) && (after === undefined || name > after) && this.findEntry(name) !== undefined)
      .sort();
    const page = names.slice(0, limit);
    const keys = page.map((name) => {
      const entry = this.entries.get(name);
      return {
        name,
        ...(entry?.expiration === undefined ? {} : { expiration: entry.expiration }),
        ...(entry?.metadata === undefined ? {} : { metadata: entry.metadata }),
      };
    });
    const last = page[page.length - 1];
    if (names.length > limit && last !== undefined)
      return { list_complete: false, keys, cursor: btoa(encodeURIComponent(last)), cacheStatus: null };
    return { list_complete: true, keys, cacheStatus: null };
  }
}

/** The KV namespace of the Deno platform; `now` is the clock in milliseconds. */
export function buildMemoryKv(now: () => number = Date.now): MemoryKv {
  return new MemoryKv(() => Math.floor(now() / 1000));
}
