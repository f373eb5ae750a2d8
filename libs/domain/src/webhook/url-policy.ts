import { isIP } from 'node:net';
import { FieldIssue, issue } from '../errors';

/**
 * Where webhooks may go (README "Webhooks"): `https://` only; plain `http://` only to a loopback
 * address, and only when `allowLoopback` (WEBHOOK_ALLOW_LOOPBACK=true outside production). Never
 * a private, link-local, loopback, multicast or reserved address otherwise (SSRF). The gateway
 * checks the URL at registration; the sender checks again every resolved address at send time
 * and connects to the checked address only (no DNS rebinding between check and connect).
 */
export interface UrlPolicy {
  readonly allowLoopback: boolean;
}

export const URL_NOT_ALLOWED = 'WEBHOOK.URL_NOT_ALLOWED';
export const MAX_URL_LENGTH = 2048;

/** IPv4 ranges no webhook may reach (RFC 6890 special-purpose registry), as [first octets, prefix]. */
const blockedV4: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

function v4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inV4(address: string, [base, prefix]: [string, number]): boolean {
  const mask = prefix === 0 ? 0 : 2 ** 32 - 2 ** (32 - prefix);
  return (v4ToInt(address) & mask) >>> 0 === (v4ToInt(base) & mask) >>> 0;
}

/** The 8 groups of an IPv6 address as numbers (handles `::` and an embedded IPv4 tail). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = v4ToInt(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const start = parse(head);
  const end = parse(tail);
  const zeros = tail === undefined ? [] : new Array(8 - start.length - end.length).fill(0);
  return [...start, ...zeros, ...end];
}

export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return inV4(address, ['127.0.0.0', 8]);
  if (family !== 6) return false;
  const g = v6Groups(address);
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true;
  const mapped = mappedV4(g);
  return mapped !== undefined && isLoopbackAddress(mapped);
}

/** `::ffff:a.b.c.d` (IPv4-mapped) as a.b.c.d. */
function mappedV4(g: number[]): string | undefined {
  if (!(g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)) return undefined;
  return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.');
}

/** True when a webhook may be sent to this IP address (v4 or v6) under the policy. */
export function isAddressAllowed(address: string, policy: UrlPolicy): boolean {
  if (isLoopbackAddress(address)) return policy.allowLoopback;
  const family = isIP(address);
  if (family === 4) return !blockedV4.some((range) => inV4(address, range));
  if (family !== 6) return false;
  const g = v6Groups(address);
  const mapped = mappedV4(g);
  if (mapped) return isAddressAllowed(mapped, policy);
  if (g.every((x) => x === 0)) return false; // ::
  if ((g[0] & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((g[0] & 0xffc0) === 0xfec0) return false; // fec0::/10 site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return false; // ff00::/8 multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // 2001:db8::/32 documentation
  if (g[0] === 0x64 && g[1] === 0xff9b) return isAddressAllowed([g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.'), policy); // NAT64
  return true;
}

function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Checks a target URL before it is stored; returns the issues (path `url`), none when allowed.
 * Host names are resolved and checked again at send time.
 */
export function checkWebhookUrl(value: unknown, policy: UrlPolicy, path = 'url'): FieldIssue[] {
  if (typeof value !== 'string' || value.length === 0) return [issue(path, 'FIELD.REQUIRED', `${path} is required`)];
  if (value.length > MAX_URL_LENGTH) return [issue(path, 'FIELD.TOO_LONG', `${path} must be at most ${MAX_URL_LENGTH} characters`)];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [issue(path, 'FIELD.INVALID_FORMAT', `${path} must be an absolute URL`)];
  }
  if (url.username || url.password) return [issue(path, 'FIELD.INVALID_FORMAT', `${path} must not carry credentials`)];
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return [issue(path, URL_NOT_ALLOWED, `${path} must be an https:// URL`)];
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = isLoopbackName(host) || isLoopbackAddress(host);
  if (url.protocol === 'http:' && !(loopback && policy.allowLoopback)) {
    return [issue(path, URL_NOT_ALLOWED, `${path} must be an https:// URL`)];
  }
  if (loopback && !policy.allowLoopback) return [issue(path, URL_NOT_ALLOWED, `${path} must not point at this machine`)];
  if (isIP(host) && !isAddressAllowed(host, policy)) {
    return [issue(path, URL_NOT_ALLOWED, `${path} must not point at a private, link-local or reserved address`)];
  }
  return [];
}
