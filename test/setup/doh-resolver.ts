/**
 * A DNS-over-HTTPS resolver (JSON API, like https://cloudflare-dns.com/dns-query) on 127.0.0.1 for the tests (vitest
 * globalSetup, Node): the API looks notification URL hosts up with it (WEBHOOKS_DNS_RESOLVER_URL). Tests write the
 * zone: `PUT /zone/<name>` with `{"A"?: [...], "AAAA"?: [...], "CNAME"?: "<name>", "down"?: true}`. A query answers the
 * CNAME chain from the name and the records of the asked type at its end (as a recursive resolver does); an unknown
 * name answers NXDOMAIN (Status 3); a name marked `down` gets its connection dropped (a resolver that is unreachable).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TestProject } from 'vitest/node';
import { readBody, startLocalServer } from './local-server.js';

interface ZoneEntry {
  readonly A?: readonly string[];
  readonly AAAA?: readonly string[];
  readonly CNAME?: string;
  readonly down?: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    dohResolver: string;
  }
}

const TYPES = { A: 1, AAAA: 28 } as const;

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const zone = new Map<string, ZoneEntry>();

  const answer = (response: ServerResponse, name: string, type: 'A' | 'AAAA') => {
    const records: { name: string; type: number; TTL: number; data: string }[] = [];
    let current = name;
    for (let hop = 0; hop < 10; hop += 1) {
      const entry = zone.get(current);
      if (!entry) break;
      if (entry.CNAME === undefined) {
        for (const data of entry[type] ?? []) records.push({ name: `${current}.`, type: TYPES[type], TTL: 60, data });
        break;
      }
      records.push({ name: `${current}.`, type: 5, TTL: 60, data: `${entry.CNAME}.` });
      current = entry.CNAME;
    }
    const status = zone.has(name) ? 0 : 3;
    const body = { Status: status, TC: false, RD: true, RA: true, Question: [{ name: `${name}.`, type: TYPES[type] }], Answer: records };
    response.writeHead(200, { 'content-type': 'application/dns-json' }).end(JSON.stringify(body));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const zoneName = /^\/zone\/([a-z0-9.-]+)$/.exec(url.pathname)?.[1];
    if (zoneName !== undefined && request.method === 'PUT') {
      zone.set(zoneName, JSON.parse(await readBody(request)) as ZoneEntry);
      return response.writeHead(204).end();
    }
    if (url.pathname !== '/dns-query') return response.writeHead(404).end();
    const name = (url.searchParams.get('name') ?? '').toLowerCase().replace(/\.$/, '');
    const type = url.searchParams.get('type');
    if (request.headers.accept !== 'application/dns-json' || (type !== 'A' && type !== 'AAAA')) return response.writeHead(400).end();
    if (zone.get(name)?.down) return request.socket.destroy();
    return answer(response, name, type);
  };

  const server = await startLocalServer(handle);
  project.provide('dohResolver', server.url);
  return () => server.close();
}
