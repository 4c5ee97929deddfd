/** `import.meta.url`: the URL of the current module, as ES module hosts give it (the Deno entry reads it). */
interface ImportMeta {
  readonly url: string;
}
