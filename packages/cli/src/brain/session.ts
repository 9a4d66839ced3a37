import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { readPerDaemon, writePrivateJson } from '../private-store.ts';

/**
 * The brain's session between runs of forge. The daemon identifies a session by an HttpOnly cookie,
 * `forge_brain`, set by the answer to a handshake; a browser keeps it, and so does the CLI: in a file
 * of FORGE_HOME readable by its owner only (0600, in a 0700 folder), one entry per daemon address,
 * sent back as a Cookie header with every brain and chat request. Its value is never printed.
 */

/** The session cookie's name (the daemon's Set-Cookie). */
export const BRAIN_COOKIE = 'forge_brain';

/** `<FORGE_HOME>/cli/brain-session.json`. */
export const brainSessionFile = (home: string): string => join(home, 'cli', 'brain-session.json');

interface StoredSession {
  /** `forge_brain=<value>`, as sent back. */
  cookie: string;
  /** When the cookie stops being valid (from Max-Age or Expires), if the daemon said. */
  expiresAt: string | null;
  /** The last reply said the session is authenticated (to tell "Authentication successful" once). */
  authenticated: boolean;
}

type SessionFile = Record<string, StoredSession>;

export interface BrainSession {
  /** The Cookie header for requests to this daemon (none without a live session). */
  headers(): Record<string, string>;
  /** Whether the last reply had authenticated this session. */
  readonly authenticated: boolean;
  /** Take the answer's Set-Cookie for `forge_brain` (a new session, a refresh, or its removal). */
  take(headers: IncomingHttpHeaders): void;
  /** Remember whether the session is authenticated; forget it when it expired. */
  note(state: { authenticated: boolean; sessionExpired?: boolean }): void;
  /** Write the file when something changed. */
  save(): Promise<void>;
}

export async function openBrainSession(
  home: string,
  baseUrl: string,
  now: () => number = Date.now,
): Promise<BrainSession> {
  const file = brainSessionFile(home);
  const all = await readSessions(file);
  let session: StoredSession | undefined = all[baseUrl];
  if (session?.expiresAt && Date.parse(session.expiresAt) <= now()) session = undefined;
  let changed = false;

  return {
    headers: (): Record<string, string> => (session ? { cookie: session.cookie } : {}),
    get authenticated() {
      return session?.authenticated ?? false;
    },
    take(headers) {
      const set = parseSetCookie(headers['set-cookie'] ?? [], now());
      if (set === undefined) return;
      changed = true;
      session = set === null ? undefined : { ...set, authenticated: session?.authenticated ?? false };
    },
    note({ authenticated, sessionExpired }) {
      if (sessionExpired) {
        changed ||= session !== undefined;
        session = undefined;
        return;
      }
      if (session && session.authenticated !== authenticated) {
        session = { ...session, authenticated };
        changed = true;
      }
    },
    async save() {
      if (!changed) return;
      changed = false;
      const next = { ...(await readSessions(file)) };
      if (session) next[baseUrl] = session;
      else delete next[baseUrl];
      await writePrivateJson(file, next);
    },
  };
}

/**
 * The `forge_brain` cookie of an answer's Set-Cookie headers: the cookie to send back with its
 * expiry, null when the daemon removes it (empty value, Max-Age ≤ 0, Expires in the past), undefined
 * when the answer does not touch it.
 */
export function parseSetCookie(
  setCookie: readonly string[],
  now: number,
): { cookie: string; expiresAt: string | null } | null | undefined {
  let found: { cookie: string; expiresAt: string | null } | null | undefined;
  for (const header of setCookie) {
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== BRAIN_COOKIE) continue;
    const value = pair.slice(eq + 1).trim();
    let expiresAt: number | null = null;
    for (const attribute of attributes) {
      const [name = '', ...rest] = attribute.split('=');
      const key = name.trim().toLowerCase();
      const arg = rest.join('=').trim();
      // Max-Age wins over Expires (RFC 6265 §5.3).
      if (key === 'max-age' && /^-?\d+$/.test(arg)) expiresAt = now + Number(arg) * 1000;
      else if (key === 'expires' && expiresAt === null && !Number.isNaN(Date.parse(arg))) {
        expiresAt = Date.parse(arg);
      }
    }
    found =
      value === '' || (expiresAt !== null && expiresAt <= now)
        ? null
        : {
            cookie: `${BRAIN_COOKIE}=${value}`,
            expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
          };
  }
  return found;
}

const readSessions = (file: string): Promise<SessionFile> =>
  readPerDaemon(file, (value) => {
    const v = value as Partial<StoredSession> | null;
    if (!v || typeof v.cookie !== 'string' || !v.cookie.startsWith(`${BRAIN_COOKIE}=`)) return undefined;
    return {
      cookie: v.cookie,
      expiresAt: typeof v.expiresAt === 'string' ? v.expiresAt : null,
      authenticated: v.authenticated === true,
    };
  });
