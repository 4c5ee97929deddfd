/**
 * DNS-over-HTTPS lookups of a notification URL's host (the JSON API of https://cloudflare-dns.com/dns-query, or the
 * resolver WEBHOOKS_DNS_RESOLVER_URL names): A and AAAA, CNAME chains followed. Every address the answers carry is
 * returned, so that one private address among public ones is seen.
 */

import { readAtMost } from './receiver';

/** The most of a resolver's answer that is read. */
const RESOLVER_ANSWER_MAX_BYTES = 65_536;
/** How long one resolver query may take. */
const DNS_TIMEOUT_MS = 5_000;
/** CNAME hops followed with further queries when an answer leaves its chain unfinished. */
const MAX_CNAME_QUERIES = 8;
const RECORD_TYPES = { A: 1, AAAA: 28 } as const;
const CNAME = 5;

type AddressType = keyof typeof RECORD_TYPES;

interface DnsRecord {
  readonly name: string;
  readonly type: number;
  readonly data: string;
}

type Resolution = { readonly addresses: readonly string[] } | { readonly error: string };

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

function isDnsRecord(value: unknown): value is DnsRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.name === 'string' && typeof record.type === 'number' && typeof record.data === 'string';
}

/** One JSON query: the answer's records, or why there are none (resolver unreachable or failing, no such name). */
async function queryResolver(resolverUrl: string, name: string, type: AddressType): Promise<{ records: DnsRecord[] } | { error: string }> {
  const url = new URL(resolverUrl);
  url.searchParams.set('name', name);
  url.searchParams.set('type', type);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), DNS_TIMEOUT_MS);
  try {
    const response = await fetch(url, { headers: { accept: 'application/dns-json' }, redirect: 'manual', signal: controller.signal });
    if (!response.ok) return { error: `the DNS resolver answered ${response.status}` };
    // A DNS JSON answer is a few hundred bytes: at most 64 KB is read (readAtMost cancels the rest).
    let body: unknown;
    try {
      body = JSON.parse(await readAtMost(response, RESOLVER_ANSWER_MAX_BYTES));
    } catch {
      if (controller.signal.aborted) throw new Error('aborted');
      return { error: 'the DNS resolver gave no DNS answer' };
    }
    const status = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).Status : undefined;
    const answer = typeof body === 'object' && body !== null ? ((body as Record<string, unknown>).Answer ?? []) : undefined;
    if (typeof status !== 'number' || !Array.isArray(answer)) return { error: 'the DNS resolver gave no DNS answer' };
    if (status === 3) return { error: `${name} does not exist (NXDOMAIN)` };
    if (status !== 0) return { error: `the DNS resolver answered status ${status} for ${name}` };
    return { records: answer.filter(isDnsRecord) };
  } catch (error) {
    if (controller.signal.aborted) return { error: `the DNS resolver did not answer within ${DNS_TIMEOUT_MS / 1000} s` };
    return { error: `the DNS resolver could not be reached: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The addresses of one type: the answer's records, the CNAME chain from `name` followed (further queries if need be). */
async function lookUp(resolverUrl: string, name: string, type: AddressType, queries = 1): Promise<Resolution> {
  const answer = await queryResolver(resolverUrl, name, type);
  if ('error' in answer) return answer;
  const addresses = answer.records.filter((record) => record.type === RECORD_TYPES[type]).map((record) => record.data);
  const chain = new Set([normalizeName(name)]);
  let current = normalizeName(name);
  for (;;) {
    const alias = answer.records.find((record) => record.type === CNAME && normalizeName(record.name) === current);
    if (!alias) break;
    current = normalizeName(alias.data);
    if (chain.has(current)) return { error: `the CNAME chain of ${name} loops` };
    chain.add(current);
  }
  const reached = answer.records.some((record) => record.type === RECORD_TYPES[type] && chain.has(normalizeName(record.name)));
  if (reached || current === normalizeName(name)) return { addresses };
  if (queries >= MAX_CNAME_QUERIES) return { error: `the CNAME chain of ${name} is too long` };
  const further = await lookUp(resolverUrl, current, type, queries + 1);
  return 'error' in further ? further : { addresses: [...addresses, ...further.addresses] };
}

/** Every A and AAAA address of `host`; an error when a query fails or the host has no address at all. */
export async function resolveHost(resolverUrl: string, host: string): Promise<Resolution> {
  const [v4, v6] = await Promise.all([lookUp(resolverUrl, host, 'A'), lookUp(resolverUrl, host, 'AAAA')]);
  if ('error' in v4) return v4;
  if ('error' in v6) return v6;
  const addresses = [...v4.addresses, ...v6.addresses];
  return addresses.length > 0 ? { addresses } : { error: `${host} has no A or AAAA record` };
}
