/**
 * Which IP addresses are public: webhooks go only to those. Not public: this network, private, shared (CGNAT),
 * loopback, link-local, benchmarking, documentation, multicast and reserved IPv4 ranges; unspecified, loopback,
 * unique-local, link-local, site-local, multicast, discard, documentation and IETF special-purpose IPv6 ranges; and IPv6
 * forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) when that address
 * is not public.
 */

/** IPv4 ranges that are not public (base, prefix length). */
const PRIVATE_V4: readonly (readonly [number, number])[] = [
  [0x00000000, 8],
  [0x0a000000, 8],
  [0x64400000, 10],
  [0x7f000000, 8],
  [0xa9fe0000, 16],
  [0xac100000, 12],
  [0xc0000000, 24],
  [0xc0000200, 24],
  [0xc0586300, 24],
  [0xc0a80000, 16],
  [0xc6120000, 15],
  [0xc6336400, 24],
  [0xcb007100, 24],
  [0xe0000000, 4],
  [0xf0000000, 4],
];

/** A dotted IPv4 address as a number, or undefined. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return undefined;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

function isPrivateIpv4(address: number): boolean {
  return PRIVATE_V4.some(([base, bits]) => Math.floor(address / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
}

/** An IPv6 address (with or without brackets, `::` and a dotted IPv4 tail allowed) as its eight 16-bit groups. */
export function parseIpv6(text: string): number[] | undefined {
  const address = text.replace(/^\[|\]$/g, '').toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(address) || address.split('::').length > 2) return undefined;
  const toGroups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups: number[] = [];
    for (const piece of part.split(':')) {
      const v4 = piece.includes('.') ? parseIpv4(piece) : undefined;
      if (v4 !== undefined) groups.push(Math.floor(v4 / 65536), v4 % 65536);
      else if (/^[0-9a-f]{1,4}$/.test(piece)) groups.push(parseInt(piece, 16));
      else return undefined;
    }
    return groups;
  };
  const [head = '', tail] = address.split('::');
  const before = toGroups(head);
  const after = tail === undefined ? [] : toGroups(tail);
  if (!before || !after) return undefined;
  if (tail === undefined) return before.length === 8 ? before : undefined;
  const missing = 8 - before.length - after.length;
  return missing >= 1 ? [...before, ...Array<number>(missing).fill(0), ...after] : undefined;
}

function isPrivateIpv6(groups: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = (high: number, low: number) => isPrivateIpv4(high * 65536 + low);
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && (g5 === 0 || g5 === 0xffff)) return embedded(g6, g7); // ::/96 (:: and ::1 too), ::ffff:0:0/96
  // NAT64 64:ff9b::/96 carries an IPv4 address; the rest of 64:ff9b::/32 (local-use 64:ff9b:1::/48) is not public.
  if (g0 === 0x64 && g1 === 0xff9b) return g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 ? embedded(g6, g7) : true;
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard 100::/64
  if (g0 === 0x2001 && (g1 < 0x200 || g1 === 0xdb8)) return true; // IETF special purpose 2001::/23, documentation
  if (g0 === 0x2002) return embedded(g1, g2); // 6to4
  if (g0 === 0x3fff && g1 < 0x1000) return true; // documentation 3fff::/20
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return true; // link-local, site-local
  return g0 >= 0xff00; // multicast
}

/** True when `text` is an IPv4 or IPv6 address outside every public range; undefined when it is not an IP address. */
export function isPrivateAddress(text: string): boolean | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return isPrivateIpv4(v4);
  const v6 = parseIpv6(text);
  return v6 === undefined ? undefined : isPrivateIpv6(v6);
}
