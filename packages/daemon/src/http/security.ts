import crypto from 'node:crypto';
import os from 'node:os';
import type { IncomingMessage } from 'node:http';
import { routes, type ErrorCode } from '@forge/shared';

/** Cookie set after `?token=` on a page; HttpOnly so page scripts never see it. */
export const TOKEN_COOKIE = 'forge_token';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

/** Which Host/Origin values the daemon answers to, and the token if one is required. */
export interface SecurityPolicy {
  /** Host names allowed on the port the request arrived on. */
  readonly hostnames: ReadonlySet<string>;
  /** `name:port` pairs allowed regardless of the local port (config entries with a port). */
  readonly hostPorts: ReadonlySet<string>;
  readonly token: string | null;
}

export const isLoopbackHost = (host: string): boolean => {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
};

/** Parse a Host header (or an allow-list entry) into a normalised hostname and optional port. */
function parseHost(value: string): { hostname: string; port: number | null } | null {
  if (!/^[A-Za-z0-9.\-[\]:]+$/.test(value)) return null;
  try {
    const url = new URL(`http://${value}`);
    return { hostname: url.hostname, port: url.port === '' ? null : Number(url.port) };
  } catch {
    return null;
  }
}

export interface PolicyInput {
  host: string;
  allowedHosts: readonly string[];
  accessToken: string | null;
}

export function createSecurityPolicy({ host, allowedHosts, accessToken }: PolicyInput): SecurityPolicy {
  const hostnames = new Set(LOOPBACK_NAMES);
  const hostPorts = new Set<string>();
  const add = (entry: string) => {
    const parsed = parseHost(entry);
    if (!parsed) return;
    if (parsed.port === null) hostnames.add(parsed.hostname);
    else hostPorts.add(`${parsed.hostname}:${parsed.port}`);
  };
  if (WILDCARD_HOSTS.has(host)) {
    // Bound to every interface: the machine's own names and addresses are its own hosts.
    add(os.hostname());
    for (const infos of Object.values(os.networkInterfaces())) {
      for (const info of infos ?? [])
        add(info.family === 'IPv6' ? `[${info.address.split('%')[0]}]` : info.address);
    }
  } else if (!isLoopbackHost(host)) {
    add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  }
  for (const entry of allowedHosts) add(entry);
  return { hostnames, hostPorts, token: accessToken };
}

const matches = (policy: SecurityPolicy, hostname: string, port: number, localPort: number): boolean =>
  (port === localPort && policy.hostnames.has(hostname)) || policy.hostPorts.has(`${hostname}:${port}`);

/** DNS-rebinding guard: the Host header must name this daemon. */
export function isHostAllowed(
  policy: SecurityPolicy,
  hostHeader: string | undefined,
  localPort: number,
): boolean {
  if (!hostHeader) return false;
  const parsed = parseHost(hostHeader);
  return parsed !== null && matches(policy, parsed.hostname, parsed.port ?? 80, localPort);
}

/** CSRF / cross-site WebSocket guard: an Origin, when sent, must be the daemon's own. */
export function isOriginAllowed(
  policy: SecurityPolicy,
  origin: string | undefined,
  localPort: number,
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque "null" origin of sandboxed frames and file:// pages
  }
  if (url.protocol !== 'http:' || url.username || url.pathname !== '/' || url.search) return false;
  return matches(policy, url.hostname, url.port === '' ? 80 : Number(url.port), localPort);
}

const digest = (value: string): Buffer => crypto.createHash('sha256').update(value).digest();

/** Constant-time comparison (hashing first makes the lengths equal). */
export function tokenMatches(policy: SecurityPolicy, candidate: string | undefined | null): boolean {
  if (policy.token === null || !candidate) return false;
  return crypto.timingSafeEqual(digest(candidate), digest(policy.token));
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Token from `Authorization: Bearer` or the forge_token cookie. */
export function hasHeaderOrCookieToken(policy: SecurityPolicy, req: IncomingMessage): boolean {
  const auth = req.headers.authorization;
  const bearer = auth?.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : undefined;
  return tokenMatches(policy, bearer) || tokenMatches(policy, readCookie(req.headers.cookie, TOKEN_COOKIE));
}

/**
 * Parse a request target. Concatenating (instead of passing a base) keeps "//host/path" a path,
 * where `new URL('//host/path', base)` would read it as another host.
 */
export const parseRequestTarget = (target: string | undefined): URL =>
  new URL(`http://forge.invalid${target?.startsWith('/') ? target : `/${target ?? ''}`}`);

export const isSafeMethod = (method: string | undefined): boolean => method === 'GET' || method === 'HEAD';

/**
 * The checks every WebSocket upgrade passes before it is accepted: Host, Origin (always, since
 * browsers let any page open a socket), then the token (header, cookie, or `?token=`).
 */
export function checkUpgrade(policy: SecurityPolicy, req: IncomingMessage): ErrorCode | null {
  const localPort = req.socket.localPort ?? 0;
  if (!isHostAllowed(policy, req.headers.host, localPort)) return 'HOST_NOT_ALLOWED';
  if (!isOriginAllowed(policy, req.headers.origin, localPort)) return 'ORIGIN_NOT_ALLOWED';
  if (policy.token !== null && !hasHeaderOrCookieToken(policy, req)) {
    const queryToken = parseRequestTarget(req.url).searchParams.get('token');
    if (!tokenMatches(policy, queryToken)) return 'TOKEN_REQUIRED';
  }
  return null;
}

/** `/api/upload`-style paths of the route table whose body is a multipart form, as patterns. */
const MULTIPART_PATHS: readonly RegExp[] = Object.values(routes)
  .filter((route) => 'multipart' in route && route.multipart !== undefined)
  .map((route) => new RegExp(`^${route.path.replace(/:[^/]+/g, '[^/]+')}/?$`, 'i'));

const isJsonType = (type: string): boolean => type.split(';')[0]!.trim().toLowerCase() === 'application/json';

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Content-Type confusion guard for state-changing requests: a body (or a declared type) on a route
 * that is not a multipart upload must be `application/json`. It refuses the forms a page can
 * send without a CORS preflight — `text/plain` holding JSON, `application/x-www-form-urlencoded`,
 * `multipart/form-data` — so no route ever runs on a body it did not parse as JSON. A request with
 * neither a body nor a type (a bare POST from the CLI) passes. Multipart routes check their own type.
 */
export function checkBodyType(req: IncomingMessage, pathname: string): string | null {
  // Every path, not only /api: routing ignores case ("/API/…"), and no page path takes a body.
  if (isSafeMethod(req.method)) return null;
  if (MULTIPART_PATHS.some((pattern) => pattern.test(pathname))) return null;
  const type = req.headers['content-type'];
  if (type === undefined ? !hasBody(req) : isJsonType(type)) return null;
  return 'Send the request body as JSON (Content-Type: application/json).';
}
