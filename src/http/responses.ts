/** Response builders shared by every service. */

const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers: { 'content-type': JSON_TYPE, ...init.headers } });
}

export function emptyResponse(status: 200 | 204, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers });
}

export function createdResponse(id: string, location: string): Response {
  return new Response(JSON.stringify(id), { status: 201, headers: { 'content-type': JSON_TYPE, location } });
}

export function etagOf(version: number): string {
  return `"${version}"`;
}
