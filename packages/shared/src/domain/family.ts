import { z } from 'zod';

/**
 * The university's family accounts (AuthBot, docs/decisions.md#the-university-authbot): accounts, login
 * tokens, the family chat and the audit log. A token is random, stored by the daemon only as a hash, and
 * travels as `Authorization: Bearer <token>` (the web keeps it in localStorage as `authToken`,
 * docs/product.md#live-state).
 */

/** Family account names: short, lowercase-insensitive words (the login's username). */
export const FamilyName = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, dot, dash or underscore');
/** Passwords: at least 10 characters (NIST 800-63B keeps length, not composition rules). */
export const FamilyPassword = z.string().min(10).max(200);

export const FamilyAccount = z.object({
  name: z.string(),
  createdAt: z.string(),
  /** Last successful login, if any. */
  lastLoginAt: z.string().nullable(),
});
export type FamilyAccount = z.infer<typeof FamilyAccount>;

export const FamilyAccountBody = z.object({ name: FamilyName, password: FamilyPassword });
export const FamilyPasswordBody = z.object({ password: FamilyPassword });
export const FamilyNameParams = z.object({ name: FamilyName });
export const FamilyOk = z.object({ ok: z.literal(true), name: z.string() });

export const LogoutResponse = z.object({ ok: z.literal(true) });

/** Who the token belongs to, and until when (GET /api/family/me). */
export const FamilySession = z.object({
  name: z.string(),
  /** The token stops working at the first of these (ISO-8601): idle and absolute expiry. */
  idleExpiresAt: z.string(),
  expiresAt: z.string(),
});
export type FamilySession = z.infer<typeof FamilySession>;

/** One message of the family chat (persisted; delivered live to signed-in family members). */
export const FamilyChatMessage = z.object({
  id: z.string(),
  from: z.string(),
  text: z.string(),
  at: z.string(),
});
export type FamilyChatMessage = z.infer<typeof FamilyChatMessage>;
export const FamilyChatBody = z.object({ text: z.string().trim().min(1).max(4_000) });
export const FamilyChatQuery = z.object({
  /** Only messages before this id (paging back); default: the newest. */
  before: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

export const AUDIT_ACTIONS = [
  'login',
  'login-failed',
  'logout',
  'account-added',
  'account-removed',
  'password-changed',
  'package',
  'extension-installed',
  'extension-removed',
  'extension-rolled-back',
  'app-rolled-back',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
/** The audit log of family actions, shown in the university's platform tab. */
export const AuditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  action: AuditAction,
  /** The account it concerns (for a failed login: the name tried). */
  actor: z.string().nullable(),
  /** Where it came from (remote address), and a few words. */
  detail: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
