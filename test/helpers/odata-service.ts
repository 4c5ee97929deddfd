/** Requests on the standard OData v4 service root (`/odata/{tenantKey}/{orgKey}/`), described by its `$metadata` rather than the OpenAPI document. */
import { SELF } from 'cloudflare:test';
import { ORIGIN } from './api';
import type { TenantClient } from './api';

export interface ServiceResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** The service root of a tenant client, as an absolute URL ending with `/`. */
export function serviceRootOf(client: Pick<TenantClient, 'tenant' | 'org'>): string {
  return `${ORIGIN}/odata/${client.tenant}/${client.org}/`;
}

/** One request on the standard root with the client's token (`token: null`: none); `path` is relative to the root. */
export async function callService<T = unknown>(
  client: Pick<TenantClient, 'tenant' | 'org' | 'token'>,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
): Promise<ServiceResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? client.token : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const url = path.startsWith('http') ? path : `${serviceRootOf(client)}${path}`;
  const response = await SELF.fetch(url, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  // Every entity answered must be what $metadata declares (as call() checks /api answers against the OpenAPI document).
  if (response.ok) await assertMatchesMetadata(client, body);
  return { status: response.status, headers: response.headers, body: body as T, text };
}

/** The OData JSON error body. */
export interface ODataError {
  error: { code: string; message: string; target?: string; details: { code: string; message: string; target: string }[] };
}

type CsdlJson = Record<string, Record<string, Record<string, unknown>>>;
type Member = { $Type?: string; $Collection?: boolean; $Nullable?: boolean; $Kind?: string; $MaxLength?: number };

let csdl: Promise<CsdlJson> | undefined;

/** The service's CSDL JSON (the same for every tenant/org: it is derived from the descriptions). */
function loadCsdl(client: Pick<TenantClient, 'tenant' | 'org' | 'token'>): Promise<CsdlJson> {
  csdl ??= SELF.fetch(`${serviceRootOf(client)}$metadata?$format=json`, { headers: { authorization: `Bearer ${client.token}` } }).then(
    (response) => response.json() as Promise<CsdlJson>,
  );
  return csdl;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Problems of one value of a declared property (empty: it is what `$metadata` says). */
function checkValue(schema: CsdlJson['Erp'], member: Member, value: unknown, where: string): string[] {
  if (value === null) return member.$Nullable ? [] : [`${where}: null, but not nullable`];
  const type = member.$Type ?? 'Edm.String';
  if (member.$Collection && member.$Kind !== 'NavigationProperty') {
    if (!Array.isArray(value)) return [`${where}: not a collection`];
    return value.flatMap((item, index) => checkValue(schema, { ...member, $Collection: false }, item, `${where}[${index}]`));
  }
  const enumType = schema?.[type.replace('Erp.', '')];
  if (enumType?.$Kind === 'EnumType')
    return Object.hasOwn(enumType, String(value)) ? [] : [`${where}: ${String(value)} is no member of ${type}`];
  const fits: Record<string, boolean> = {
    'Edm.String': typeof value === 'string' && (member.$MaxLength === undefined || value.length <= member.$MaxLength),
    'Edm.Int64': Number.isInteger(value),
    'Edm.Int32': Number.isInteger(value),
    'Edm.Boolean': typeof value === 'boolean',
    'Edm.Decimal': typeof value === 'number',
    'Edm.Guid': typeof value === 'string' && GUID.test(value),
    'Edm.DateTimeOffset': typeof value === 'string' && INSTANT.test(value),
  };
  return fits[type] ? [] : [`${where}: ${JSON.stringify(value)} is not ${type}`];
}

/** Problems of one entity of entity type `typeName`: every property declared (or dynamic on an open type) and typed. */
function checkEntity(schema: CsdlJson['Erp'], typeName: string, entity: Record<string, unknown>, where: string): string[] {
  const type = (schema?.[typeName] ?? {}) as Record<string, Member> & { $OpenType?: boolean };
  return Object.entries(entity).flatMap(([name, value]) => {
    if (name.startsWith('@')) return [];
    const member = type[name];
    if (!member) return type.$OpenType && name.startsWith('custom_') ? [] : [`${where}.${name}: not declared by ${typeName}`];
    if (member.$Kind !== 'NavigationProperty') return checkValue(schema, member, value, `${where}.${name}`);
    if (!Array.isArray(value)) return [`${where}.${name}: not a collection`];
    const target = (member.$Type ?? '').replace('Erp.', '');
    return value.flatMap((item, index) => checkEntity(schema, target, item as Record<string, unknown>, `${where}.${name}[${index}]`));
  });
}

/**
 * Checks an answer of the standard root against `$metadata`, as test/helpers/contract.ts checks `/api` answers against
 * the OpenAPI document: the entities of an answer whose context names an entity set (or one entity of it) have only
 * the properties their entity type declares (dynamic `custom_*` on open types, expanded navigation), each of its type.
 */
export async function assertMatchesMetadata(client: Pick<TenantClient, 'tenant' | 'org' | 'token'>, body: unknown): Promise<void> {
  const context = (body as { '@odata.context'?: string } | null)?.['@odata.context'];
  const match = /\$metadata#([A-Za-z]+)(\([^/]*\))?(\/\$entity)?$/.exec(context ?? '');
  if (!match) return;
  const schema = (await loadCsdl(client)).Erp ?? {};
  const set = schema?.Container?.[match[1] ?? ''] as { $Type?: string } | undefined;
  if (!set?.$Type) throw new Error(`${context}: no entity set ${match[1]}`);
  const typeName = set.$Type.replace('Erp.', '');
  const entities = match[3] ? [body] : ((body as { value?: unknown[] }).value ?? []);
  const problems = entities.flatMap((entity, index) =>
    checkEntity(schema, typeName, entity as Record<string, unknown>, `${match[1]}[${index}]`),
  );
  if (problems.length > 0) throw new Error(`The answer is not what $metadata declares:\n${problems.join('\n')}`);
}
