import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type {
  AUDIT_ACTIONS,
  AuditEntry,
  FamilyAccount,
  FamilyChatMessage,
  FamilySession,
} from '@forge/shared';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Store } from '../../store/store.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords.ts';
import { createLoginLimiter } from './rate-limit.ts';

/**
 * AuthBot: the university's family accounts, their login tokens, the family chat and the audit log.
 *
 * A token is 32 random bytes (base64url) handed out once; the store keeps only its SHA-256. It stops
 * working after 30 minutes unused (idle expiry; each use refreshes it, written at most once a
 * minute) and 12 hours after login (absolute expiry), on logout, and when its account is removed or
 * its password changed.
 */

export const TOKEN_IDLE_MS = 30 * 60_000;
export const TOKEN_LIFETIME_MS = 12 * 60 * 60_000;
/** A token's last use is written at most this often (a use refreshes the idle expiry). */
const TOUCH_EVERY_MS = 60_000;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The header that carries the family token when `Authorization` carries the daemon's access token. */
export const FAMILY_TOKEN_HEADER = 'x-forge-family';

export interface FamilyGuard {
  /** The family member a request's token belongs to, or null (no token, unknown, expired, revoked). */
  authenticate(req: IncomingMessage): { name: string } | null;
  /** As authenticate, but throws FAMILY_AUTH_REQUIRED (401) instead of answering null. */
  require(req: IncomingMessage): { name: string };
  /** Write one family action to the audit log; with `req`, its remote address goes in the detail. */
  audit(action: AuditAction, actor: string | null, detail: string, req?: IncomingMessage): void;
  /** Audit an action of the platform by whoever is signed in on `req` (no actor when nobody is). */
  auditBy(req: IncomingMessage, action: AuditAction, detail: string): void;
}

export interface FamilyService extends FamilyGuard {
  login(username: string, password: string, req: IncomingMessage): Promise<string>;
  logout(req: IncomingMessage): Promise<void>;
  session(req: IncomingMessage): FamilySession;
  /** The name a raw token belongs to (for /ws family-auth); `touch` counts it as a use. */
  nameOfToken(token: string, touch: boolean): string | null;
  accounts(): FamilyAccount[];
  add(name: string, password: string, req: IncomingMessage): Promise<void>;
  remove(name: string, req: IncomingMessage): Promise<string>;
  passwd(name: string, password: string, req: IncomingMessage): Promise<string>;
  chat(query: { before?: string; limit?: number }): FamilyChatMessage[];
  say(from: string, text: string): FamilyChatMessage;
  auditLog(limit?: number): AuditEntry[];
}

export interface FamilyDeps {
  store: Store;
  fleet: Fleet;
  logger: Logger;
  now: () => number;
}

interface TokenRow {
  name: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
}

const sha256 = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

/** The client's address as the socket sees it (no proxy headers are trusted: Forge is local). */
export const addressOf = (req: IncomingMessage): string => req.socket.remoteAddress ?? 'unknown';

/**
 * The family token of a request: the `X-Forge-Family` header when sent, else `Authorization:
 * Bearer`. When the daemon has an access token (bound beyond loopback), clients send that one as
 * Bearer (or as the forge_token cookie), so the family token must then travel in X-Forge-Family;
 * a Bearer value that is the access token simply matches no family token.
 */
export function familyTokenOf(req: IncomingMessage): string | null {
  const header = req.headers[FAMILY_TOKEN_HEADER];
  const own = Array.isArray(header) ? header[0] : header;
  if (own?.trim()) return own.trim();
  const auth = req.headers.authorization;
  const bearer = auth?.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
  return bearer || null;
}

export function createFamilyService({ store, fleet, logger, now }: FamilyDeps): FamilyService {
  const { db } = store;
  const limiter = createLoginLimiter({ now });
  const iso = (ms = now()) => new Date(ms).toISOString();

  const q = {
    account: db.prepare('SELECT name, password_hash FROM family_accounts WHERE name = ?'),
    accounts: db.prepare(
      'SELECT name, created_at, last_login_at FROM family_accounts ORDER BY name COLLATE NOCASE',
    ),
    addAccount: db.prepare(
      'INSERT INTO family_accounts (name, password_hash, created_at, last_login_at) VALUES (?, ?, ?, NULL)',
    ),
    removeAccount: db.prepare('DELETE FROM family_accounts WHERE name = ?'),
    setHash: db.prepare('UPDATE family_accounts SET password_hash = ? WHERE name = ?'),
    loggedIn: db.prepare('UPDATE family_accounts SET last_login_at = ? WHERE name = ?'),
    token: db.prepare(
      'SELECT name, created_at, last_used_at, expires_at FROM family_tokens WHERE token_hash = ?',
    ),
    addToken: db.prepare(
      'INSERT INTO family_tokens (token_hash, name, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    touch: db.prepare('UPDATE family_tokens SET last_used_at = ? WHERE token_hash = ?'),
    revoke: db.prepare('DELETE FROM family_tokens WHERE token_hash = ?'),
    revokeAll: db.prepare('DELETE FROM family_tokens WHERE name = ?'),
    sweep: db.prepare('DELETE FROM family_tokens WHERE expires_at <= ? OR last_used_at <= ?'),
    say: db.prepare('INSERT INTO family_chat ("from", text, at) VALUES (?, ?, ?)'),
    chatNewest: db.prepare(
      'SELECT id, "from", text, at FROM family_chat WHERE id < ? ORDER BY id DESC LIMIT ?',
    ),
    audit: db.prepare('INSERT INTO audit_log (at, action, actor, detail) VALUES (?, ?, ?, ?)'),
    auditLog: db.prepare('SELECT id, at, action, actor, detail FROM audit_log ORDER BY id DESC LIMIT ?'),
  };

  /** The live row of a token, or null; an expired one is deleted on the way. */
  const liveToken = (token: string, touch: boolean): (TokenRow & { hash: string }) | null => {
    const hash = sha256(token);
    const row = q.token.get(hash) as TokenRow | undefined;
    if (!row) return null;
    const t = now();
    if (t >= row.expires_at || t - row.last_used_at >= TOKEN_IDLE_MS) {
      q.revoke.run(hash);
      return null;
    }
    if (touch && t - row.last_used_at >= TOUCH_EVERY_MS) {
      q.touch.run(t, hash);
      row.last_used_at = t;
    }
    return { ...row, hash };
  };

  const authenticate = (req: IncomingMessage): { name: string } | null => {
    const token = familyTokenOf(req);
    const row = token ? liveToken(token, true) : null;
    return row ? { name: row.name } : null;
  };
  const requireFamily = (req: IncomingMessage): { name: string } => {
    const who = authenticate(req);
    if (!who) throw new ForgeError('FAMILY_AUTH_REQUIRED');
    return who;
  };

  const audit: FamilyGuard['audit'] = (action, actor, detail, req) => {
    const text = [req ? addressOf(req) : '', detail].filter(Boolean).join(': ');
    q.audit.run(iso(), action, actor, text);
  };

  /** An AuthBot job; what it answers is decided by `fn`, a refusal is still a job done right. */
  const asAuthBot = <T>(label: string, fn: () => Promise<T>, summary: (r: T) => string): Promise<T> =>
    fleet.run('AuthBot', { label }, fn, { slot: false, summary });

  const findAccount = (name: string): { name: string; password_hash: string } | null =>
    (q.account.get(name) as { name: string; password_hash: string } | undefined) ?? null;
  const mustFind = (name: string) => {
    const account = findAccount(name);
    if (!account)
      throw new ForgeError('FAMILY_ACCOUNT_NOT_FOUND', `There is no family account named "${name}".`);
    return account;
  };

  return {
    authenticate,
    require: requireFamily,
    audit,
    auditBy: (req, action, detail) => audit(action, authenticate(req)?.name ?? null, detail, req),

    async login(username, password, req) {
      const address = addressOf(req);
      const userKey = `user:${username.trim().toLowerCase()}`;
      const addressKey = `address:${address}`;
      const wait = Math.max(limiter.retryAfter(userKey), limiter.retryAfter(addressKey));
      if (wait > 0) throw new ForgeError('TOO_MANY_ATTEMPTS', undefined, { retryAfterSeconds: wait });
      const result = await asAuthBot(
        `login ${username}`,
        async () => {
          const account = findAccount(username.trim());
          // Unknown names are checked against a dummy hash: same answer, same time as a wrong password.
          const ok = await verifyPassword(password, account?.password_hash ?? DUMMY_HASH);
          if (!account || !ok) {
            limiter.fail(userKey);
            limiter.fail(addressKey);
            audit('login-failed', username, '', req);
            return { token: null, name: username };
          }
          limiter.reset(userKey);
          const token = crypto.randomBytes(32).toString('base64url');
          const t = now();
          q.sweep.run(t, t - TOKEN_IDLE_MS);
          q.addToken.run(sha256(token), account.name, t, t, t + TOKEN_LIFETIME_MS);
          q.loggedIn.run(iso(t), account.name);
          audit('login', account.name, '', req);
          return { token, name: account.name };
        },
        (r) => (r.token ? `${r.name} logged in` : `refused a login as ${r.name}`),
      );
      if (!result.token) throw new ForgeError('INVALID_CREDENTIALS');
      return result.token;
    },

    async logout(req) {
      const token = familyTokenOf(req);
      const row = token ? liveToken(token, false) : null;
      if (!row) throw new ForgeError('FAMILY_AUTH_REQUIRED');
      await asAuthBot(
        `logout ${row.name}`,
        async () => {
          q.revoke.run(row.hash);
          audit('logout', row.name, '', req);
        },
        () => `${row.name} logged out`,
      );
    },

    session(req) {
      const token = familyTokenOf(req);
      const row = token ? liveToken(token, true) : null;
      if (!row) throw new ForgeError('FAMILY_AUTH_REQUIRED');
      return {
        name: row.name,
        idleExpiresAt: iso(Math.min(row.last_used_at + TOKEN_IDLE_MS, row.expires_at)),
        expiresAt: iso(row.expires_at),
      };
    },

    nameOfToken(token, touch) {
      return liveToken(token, touch)?.name ?? null;
    },

    accounts() {
      const rows = q.accounts.all() as Array<{
        name: string;
        created_at: string;
        last_login_at: string | null;
      }>;
      return rows.map((r) => ({ name: r.name, createdAt: r.created_at, lastLoginAt: r.last_login_at }));
    },

    async add(name, password, req) {
      await asAuthBot(
        `add account ${name}`,
        async () => {
          if (findAccount(name)) {
            throw new ForgeError('FAMILY_ACCOUNT_EXISTS', `A family account named "${name}" already exists.`);
          }
          const hash = await hashPassword(password);
          try {
            q.addAccount.run(name, hash, iso());
          } catch (error) {
            // Two adds of one name at once: the second finds the first's row.
            if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
              throw new ForgeError(
                'FAMILY_ACCOUNT_EXISTS',
                `A family account named "${name}" already exists.`,
              );
            }
            throw error;
          }
          audit('account-added', name, '', req);
        },
        () => `added the family account ${name}`,
      );
      logger.info({ name }, 'family account added');
    },

    async remove(name, req) {
      return asAuthBot(
        `remove account ${name}`,
        async () => {
          const account = mustFind(name);
          db.transaction(() => {
            q.revokeAll.run(account.name);
            q.removeAccount.run(account.name);
          })();
          audit('account-removed', account.name, '', req);
          return account.name;
        },
        (removed) => `removed the family account ${removed}`,
      );
    },

    async passwd(name, password, req) {
      return asAuthBot(
        `change password of ${name}`,
        async () => {
          mustFind(name);
          const hash = await hashPassword(password);
          const account = mustFind(name); // still there after the hash's few hundred ms
          db.transaction(() => {
            q.setHash.run(hash, account.name);
            q.revokeAll.run(account.name);
          })();
          audit('password-changed', account.name, '', req);
          return account.name;
        },
        (changed) => `changed the password of ${changed}`,
      );
    },

    chat({ before, limit = 100 }) {
      const beforeId = before && /^\d+$/.test(before) ? Number(before) : Number.MAX_SAFE_INTEGER;
      const rows = q.chatNewest.all(beforeId, limit) as Array<{
        id: number;
        from: string;
        text: string;
        at: string;
      }>;
      return rows.reverse().map((r) => ({ id: String(r.id), from: r.from, text: r.text, at: r.at }));
    },

    say(from, text) {
      const at = iso();
      const { lastInsertRowid } = q.say.run(from, text, at);
      return { id: String(lastInsertRowid), from, text, at };
    },

    auditLog(limit = 200) {
      return q.auditLog.all(limit) as AuditEntry[];
    },
  };
}
