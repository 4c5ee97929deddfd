/**
 * `JSON.rawJSON` (TC39 "JSON.parse source text access", stage 3): shipped by V8, so by the Workers runtime and Deno,
 * not yet in TypeScript's ES2022 library. A raw JSON value is written by `JSON.stringify` as the text given.
 */
interface JSON {
  rawJSON(text: string): unknown;
}
