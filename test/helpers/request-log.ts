/** The request log seen by tests (Workers runtime only): one request through the app, with the log lines it wrote. */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { vi } from 'vitest';
import { app } from '../../src/app';
import { buildWorkerPlatform } from '../../src/runtime/cloudflare/platform';
import { TENANT_MODEL } from '../../src/tenant-model';
import type { Platform } from '../../src/runtime/platform';
import { ORIGIN } from './api';

/** Sends one request through the Worker's app and answers the response and the log lines it wrote. */
export async function fetchLogged(
  path: string,
  init: RequestInit,
  adapt: (platform: Platform) => Platform = (platform) => platform,
): Promise<{ response: Response; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const capture = (text: unknown) => {
    const parsed: unknown = JSON.parse(String(text));
    if (typeof parsed === 'object' && parsed !== null) lines.push(Object.fromEntries(Object.entries(parsed)));
  };
  vi.spyOn(console, 'log').mockImplementation(capture);
  vi.spyOn(console, 'error').mockImplementation(capture);
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`${ORIGIN}${path}`, init), adapt(buildWorkerPlatform(env, ctx, TENANT_MODEL)));
  await waitOnExecutionContext(ctx);
  vi.restoreAllMocks();
  return { response, lines };
}
