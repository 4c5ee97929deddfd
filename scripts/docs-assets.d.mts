// Types of docs-assets.mjs (used by the vitest configs and the browser test).
export declare const PUBLIC_DIR: string;
export declare const ASSETS_PREFIX: string;
export declare const MANIFEST_NAME: string;
export declare const IMMUTABLE_CACHE: string;
export declare function buildDocsAssets(): Record<'swaggerScript' | 'swaggerStyle' | 'pageScript' | 'pageStyle' | 'icon', string>;
