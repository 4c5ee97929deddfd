/** Text files imported by tests with Vite's `?raw` suffix (the docs whose examples they run). */
declare module '*.md?raw' {
  const text: string;
  // Vite hands a `?raw` import's text as the module's default export.
  // eslint-disable-next-line no-restricted-syntax
  export default text;
}
