import { isLoopbackHost } from '../http/security.ts';

const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** The URL clients use: a wildcard bind is reached over loopback; IPv6 literals get brackets. */
export function daemonUrl(host: string, port: number): string {
  const reachable = WILDCARD.has(host) ? '127.0.0.1' : host;
  const bracketed = reachable.includes(':') && !reachable.startsWith('[') ? `[${reachable}]` : reachable;
  return `http://${bracketed}:${port}`;
}

/** The address to hand to server.listen (no brackets). */
export const listenHost = (host: string): string => host.replace(/^\[|\]$/g, '');

export { isLoopbackHost };
