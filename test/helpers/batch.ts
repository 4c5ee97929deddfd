/** `$batch` in tests: the answer's shape and a call through a tenant client. */
import type { CallResult, TenantClient } from './api';

export interface BatchAnswer {
  readonly id: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
  readonly atomicityGroup?: string;
}

export interface BatchEntry {
  readonly id: string;
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  readonly dependsOn?: readonly string[];
  readonly atomicityGroup?: string;
}

export function sendBatch(
  client: TenantClient,
  requests: readonly BatchEntry[],
  headers: Record<string, string> = {},
): Promise<CallResult<{ responses: BatchAnswer[] }>> {
  return client.call<{ responses: BatchAnswer[] }>('POST', '/$batch', { body: { requests }, headers });
}

export function templateBody(templateKey: string, subject = 'Hello'): Record<string, unknown> {
  return { templateKey, subject, emailTemplateType: 1, notificationBody: '<p>Hi</p>', culture: 'en-US' };
}
