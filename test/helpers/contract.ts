/**
 * The response contract check used by `call()` (test/helpers/api.ts): every response an integration test receives
 * must have a status documented for the matched operation of /openapi.json and a body valid against its schema
 * (@cfworker/json-schema; runs in workerd and in Node). Unmatched paths must answer a documented problem+json error.
 */
import { SELF } from 'cloudflare:test';
import { Validator } from '@cfworker/json-schema';
import type { Schema } from '@cfworker/json-schema';

type Json = Record<string, unknown>;

interface DocumentedOperation {
  readonly method: string;
  readonly path: string;
  readonly segments: readonly (string | null)[];
  readonly match: RegExp;
  readonly operation: Json;
}

interface Contract {
  readonly operations: readonly DocumentedOperation[];
  readonly components: Json;
  readonly validators: Map<string, Validator>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
/** Statuses any request may get before an operation is chosen (address, auth, unknown path, wrong method). */
const UNROUTED_STATUSES = [400, 401, 403, 404, 405, 429];

let contract: Promise<Contract> | undefined;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(method: string, path: string, operation: Json): DocumentedOperation {
  const parts = path.split('/').slice(1);
  const segments = parts.map((part) => (/^\{[^}]+\}$/.test(part) ? null : part));
  const pattern = parts.map((part, index) => (segments[index] === null ? '[^/]+' : escapeRegExp(part))).join('/');
  // Literal segments match in any case, as the router matches them (keys and ids are parameters).
  return { method: method.toUpperCase(), path, segments, match: new RegExp(`^/${pattern}/?$`, 'i'), operation };
}

async function loadContract(): Promise<Contract> {
  const response = await SELF.fetch('https://api.test/openapi.json');
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  const document = (await response.json()) as { paths: Record<string, Json>; components: Json };
  const operations: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) if (item[method]) operations.push(compile(method, path, item[method] as Json));
  }
  return { operations, components: document.components, validators: new Map() };
}

/** Literal segments win over parameters, position by position, as the router orders its routes. */
function compareSpecificity(a: DocumentedOperation, b: DocumentedOperation): number {
  for (let index = 0; index < Math.max(a.segments.length, b.segments.length); index++) {
    const left = a.segments[index] === null ? 1 : 0;
    const right = b.segments[index] === null ? 1 : 0;
    if (left !== right) return left - right;
  }
  return 0;
}

export function findOperation(
  operations: readonly DocumentedOperation[],
  method: string,
  pathname: string,
): DocumentedOperation | undefined {
  return operations.filter((operation) => operation.method === method && operation.match.test(pathname)).sort(compareSpecificity)[0];
}

/** `#/components/schemas/X` -> `#/$defs/X`, so one JSON Schema carries every component it refers to. */
function readValidator(current: Contract, key: string, schema: Json): Validator {
  let validator = current.validators.get(key);
  if (!validator) {
    const schemas = (current.components.schemas ?? {}) as Json;
    const rewritten = JSON.parse(JSON.stringify({ ...schema, $defs: schemas }).replaceAll('#/components/schemas/', '#/$defs/')) as Schema;
    validator = new Validator(rewritten, '2020-12', false);
    current.validators.set(key, validator);
  }
  return validator;
}

function describeErrors(result: ReturnType<Validator['validate']>): string {
  return result.errors
    .filter((error) => !error.error.startsWith('A subschema had errors') && !error.error.startsWith('Property "'))
    .slice(0, 8)
    .map((error) => `${error.instanceLocation}: ${error.error}`)
    .join('\n');
}

function readBody(text: string, mediaType: string): unknown {
  if (!mediaType.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`The ${mediaType} body is not JSON: ${text.slice(0, 200)}`);
  }
}

function checkAgainst(current: Contract, key: string, response: Json, status: number, headers: Headers, text: string): void {
  const content = response.content as Record<string, { schema: Json }> | undefined;
  for (const name of Object.keys((response.headers ?? {}) as Json)) {
    if (!headers.has(name)) throw new Error(`${key}: header ${name} is documented but missing`);
  }
  if (!content) {
    if (text !== '') throw new Error(`${key}: documented without a body, got ${text.slice(0, 200)}`);
    return;
  }
  // The answer's media type must be one the operation documents for the status (a $batch answers JSON or multipart).
  const received = (headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const documented = Object.entries(content).find(([type]) => type === received);
  if (!documented) throw new Error(`${key}: content type ${received || '(none)'}, documented ${Object.keys(content).join(', ')}`);
  const [mediaType, media] = documented;
  const result = readValidator(current, `${key} ${mediaType}`, media.schema).validate(readBody(text, mediaType));
  if (!result.valid)
    throw new Error(
      `${key} (status ${status}): the body does not match the documented schema:\n${describeErrors(result)}\nBody: ${text.slice(0, 500)}`,
    );
}

/** Throws when the response is not the documented one for the request. */
export async function assertDocumentedResponse(method: string, url: string, status: number, headers: Headers, text: string): Promise<void> {
  contract ??= loadContract();
  const current = await contract;
  const pathname = new URL(url).pathname;
  const operation = findOperation(current.operations, method, pathname);
  if (!operation) {
    if (!UNROUTED_STATUSES.includes(status))
      throw new Error(`${method} ${pathname}: no documented operation, and the status ${status} is not a routing error`);
    const problem = {
      description: 'Routing error',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
    };
    checkAgainst(current, 'unrouted', problem, status, headers, text);
    return;
  }
  const operationId = String(operation.operation.operationId);
  const responses = operation.operation.responses as Record<string, Json>;
  const listed = responses[String(status)];
  const response =
    typeof listed?.$ref === 'string'
      ? ((current.components.responses ?? {}) as Record<string, Json>)[listed.$ref.split('/').pop() ?? '']
      : listed;
  if (!response)
    throw new Error(
      `${method} ${pathname} (${operationId}): status ${status} is not documented (documented: ${Object.keys(responses).join(', ')}). Body: ${text.slice(0, 300)}`,
    );
  checkAgainst(current, `${operationId} ${status}`, response, status, headers, text);
}
