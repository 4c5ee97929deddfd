/**
 * The static files of GET /docs: built into public/ by scripts/docs-assets.mjs with content-hashed names, served
 * as static assets (Workers `[assets]`; the Deno server serves the same directory), and listed in
 * /docs-assets.json, which the page reads through the platform's assets.
 */
import * as v from 'valibot';
import type { Platform } from '../runtime/platform';

const DOCS_ASSETS_MANIFEST = '/docs-assets.json';

const AssetPath = v.pipe(v.string(), v.regex(/^\/assets\/[A-Za-z0-9._-]+$/));

const ManifestSchema = v.object({
  swaggerScript: AssetPath,
  swaggerStyle: AssetPath,
  pageScript: AssetPath,
  pageStyle: AssetPath,
  icon: AssetPath,
});

export type DocsAssets = v.InferOutput<typeof ManifestSchema>;

let cached: DocsAssets | undefined;

/** The hashed asset paths (read once per isolate); a missing or malformed manifest is a deployment fault. */
export async function loadDocsAssets(platform: Platform): Promise<DocsAssets> {
  if (cached) return cached;
  const response = await platform.readAsset(DOCS_ASSETS_MANIFEST);
  if (!response) {
    throw new Error(`The API reference assets are missing (${DOCS_ASSETS_MANIFEST}): run \`npm run assets\` before starting or deploying.`);
  }
  const result = v.safeParse(ManifestSchema, await response.json());
  if (!result.success) throw new Error(`${DOCS_ASSETS_MANIFEST} is not valid: ${result.issues.map((issue) => issue.message).join(' ')}`);
  cached = result.output;
  return cached;
}
