// `cloudflare:workers` for the Deno test run: only the Worker entry and the Durable Object import it.
throw new Error(
  'This test imports the Worker entry or the Durable Object (cloudflare:workers), which exist in the Workers runtime only: name the test file *.workers.test.ts so that only the Workers run picks it up.',
);
