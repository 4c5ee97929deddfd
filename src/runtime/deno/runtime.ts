/**
 * The few Deno APIs the Deno entry uses, typed here so the Worker's type check covers the Deno code
 * without Deno's own type library (which clashes with the Workers types).
 */

interface DenoListenAddress {
  readonly hostname: string;
  readonly port: number;
}

interface DenoServeOptions {
  readonly hostname: string;
  readonly port: number;
  readonly signal?: AbortSignal;
  onListen?(address: DenoListenAddress): void;
}

interface DenoHttpServer {
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}

interface DenoDirEntry {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
}

/** What Deno.serve tells a handler about the connection. */
export interface DenoServeInfo {
  readonly remoteAddr?: { readonly hostname?: string };
}

/** A TCP connection (Deno.Conn). */
export interface DenoConn {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  read(buffer: Uint8Array): Promise<number | null>;
  write(data: Uint8Array): Promise<number>;
  close(): void;
}

/** A TCP listener (Deno.Listener). */
export interface DenoListener extends AsyncIterable<DenoConn> {
  readonly addr: { readonly port: number };
  unref(): void;
  close(): void;
}

/** An HTTP client of fetch's `client` option (Deno.HttpClient). */
interface DenoHttpClient {
  close(): void;
}

/** An open file (Deno.FsFile): its bytes as streams. */
interface DenoFile {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  /** Moves the cursor (`whence` 0: from the start, Deno.SeekMode.Start); `readable` reads on from it. */
  seek(offset: number, whence: 0): Promise<number>;
}

/** A server-side WebSocket (Deno.upgradeWebSocket's `socket`). */
export interface DenoWebSocket {
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: (() => void) | null;
  onerror: (() => void) | null;
}

export interface DenoRuntime {
  readonly env: { get(name: string): string | undefined };
  readonly stdin: { readonly readable: ReadableStream<Uint8Array> };
  serve(options: DenoServeOptions, handler: (request: Request, info?: DenoServeInfo) => Promise<Response>): DenoHttpServer;
  readDir(path: string | URL): AsyncIterable<DenoDirEntry>;
  readTextFile(path: string | URL): Promise<string>;
  readFile(path: string | URL): Promise<Uint8Array>;
  mkdir(path: string | URL, options?: { recursive?: boolean; mode?: number }): Promise<void>;
  writeTextFile(path: string | URL, data: string, options?: { mode?: number }): Promise<void>;
  remove(path: string | URL, options?: { recursive?: boolean }): Promise<void>;
  readonly build: { readonly os: string };
  chmodSync(path: string | URL, mode: number): void;
  writeFileSync(path: string | URL, data: Uint8Array, options?: { createNew?: boolean; mode?: number }): void;
  readDirSync(path: string | URL): Iterable<DenoDirEntry>;
  open(path: string, options: { read?: boolean; write?: boolean; createNew?: boolean; mode?: number }): Promise<DenoFile>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void;
  listen(options: { readonly hostname: string; readonly port: number }): DenoListener;
  connect(options: { readonly hostname: string; readonly port: number; readonly signal?: AbortSignal }): Promise<DenoConn>;
  createHttpClient(options: {
    readonly proxy: { readonly url: string; readonly basicAuth: { readonly username: string; readonly password: string } };
  }): DenoHttpClient;
  exit(code?: number): never;
  /** `idleTimeout` (seconds): the server pings, and closes a socket whose client does not answer within it. */
  upgradeWebSocket(request: Request, options?: { idleTimeout?: number }): { socket: DenoWebSocket; response: Response };
}

/** The `Deno` global; throws when not running under Deno. */
export function requireDenoRuntime(): DenoRuntime {
  // The Workers type set has no `Deno` global; DenoRuntime declares the part of it this code uses.
  const deno = (globalThis as { Deno?: DenoRuntime }).Deno;
  if (!deno) throw new Error('src/deno.ts runs under Deno (npm run start:deno).');
  return deno;
}

/** Reads every `*.sql` file of a directory, by file name. */
export async function loadSqlFiles(deno: DenoRuntime, directory: URL): Promise<{ name: string; sql: string }[]> {
  const files: { name: string; sql: string }[] = [];
  for await (const entry of deno.readDir(directory)) {
    if (entry.isFile && entry.name.endsWith('.sql'))
      files.push({ name: entry.name, sql: await deno.readTextFile(new URL(entry.name, directory)) });
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Resolves when standard input ends (the parent process closed the pipe or exited). */
export async function waitForStdinEnd(deno: DenoRuntime): Promise<void> {
  const reader = deno.stdin.readable.getReader();
  try {
    while (!(await reader.read()).done) {
      // the content does not matter
    }
  } catch {
    // a broken pipe ends it as well
  }
}
