import crypto from 'node:crypto';

/** The cookie naming a brain session (HttpOnly, SameSite=Strict, Path=/api). */
export const BRAIN_COOKIE = 'forge_brain';
/** Wrong code phrases allowed per session within the window before it must wait. */
export const MAX_WRONG_CODES = 5;
export const WRONG_CODE_WINDOW_MS = 10 * 60_000;
/** Sessions kept at once; the least recently used goes first (a client that drops its cookie each time). */
const MAX_SESSIONS = 500;

export type SessionState = 'guest' | 'awaiting-code' | 'authenticated';

export interface BrainSession {
  state: SessionState;
  /** When an authenticated session ends (ms), else null. */
  expiresAt: number | null;
  /** Times of wrong code phrases still inside the window. */
  wrongCodes: number[];
}

const digest = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Brain sessions, in memory only (a daemon restart ends them all). The cookie carries a random
 * 32-byte token; only its SHA-256 is kept, so nothing here can be replayed as a cookie.
 */
export function createSessions(now: () => number) {
  const sessions = new Map<string, BrainSession>();

  /** Move to the back of the map: Map order is the LRU order. */
  const touch = (key: string, session: BrainSession): BrainSession => {
    sessions.delete(key);
    sessions.set(key, session);
    return session;
  };

  return {
    /** The session a cookie token names, or null when it names none (absent, unknown, from before a restart). */
    get(token: string | undefined): BrainSession | null {
      if (!token) return null;
      const key = digest(token);
      const session = sessions.get(key);
      return session ? touch(key, session) : null;
    },
    /** A new guest session and the token for its cookie. */
    create(): { token: string; session: BrainSession } {
      const token = crypto.randomBytes(32).toString('base64url');
      const session: BrainSession = { state: 'guest', expiresAt: null, wrongCodes: [] };
      sessions.set(digest(token), session);
      while (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      return { token, session };
    },
    authenticate(session: BrainSession, minutes: number): void {
      session.state = 'authenticated';
      session.expiresAt = now() + minutes * 60_000;
      session.wrongCodes = [];
    },
    /** Whether the session is authenticated right now (an expired one is not, until told so). */
    isAuthenticated(session: BrainSession | null): boolean {
      return session?.state === 'authenticated' && session.expiresAt !== null && now() < session.expiresAt;
    },
    /** An authenticated session whose time is up: back to guest (the caller says so once). */
    expired(session: BrainSession): boolean {
      if (session.state !== 'authenticated' || session.expiresAt === null || now() < session.expiresAt)
        return false;
      session.state = 'guest';
      session.expiresAt = null;
      return true;
    },
    remaining(session: BrainSession | null): number {
      return session && this.isAuthenticated(session) ? Math.max(0, session.expiresAt! - now()) : 0;
    },
    /** Milliseconds the session must wait before another code phrase is checked (0: go ahead). */
    lockedFor(session: BrainSession): number {
      const since = now() - WRONG_CODE_WINDOW_MS;
      session.wrongCodes = session.wrongCodes.filter((t) => t > since);
      if (session.wrongCodes.length < MAX_WRONG_CODES) return 0;
      return session.wrongCodes[0]! + WRONG_CODE_WINDOW_MS - now();
    },
    wrongCode(session: BrainSession): void {
      session.wrongCodes.push(now());
    },
    /** The code phrase changed: every session must authenticate again. */
    endAll(): void {
      for (const session of sessions.values()) {
        session.state = 'guest';
        session.expiresAt = null;
      }
    },
    get size(): number {
      return sessions.size;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
