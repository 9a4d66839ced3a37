import { join } from 'node:path';
import { readPerDaemon, writePrivateJson } from '../private-store.ts';

/**
 * The university's family login between runs of forge. `forge login` gets a token from the daemon
 * (AuthBot) and keeps it here, in a file of FORGE_HOME readable by its owner only (0600, in a 0700
 * folder), one entry per daemon address; `forge memory` sends it back in X-Forge-Family, and
 * `forge logout` revokes and forgets it. The token is never printed.
 */

/**
 * The header that carries the family token. Always accepted by the daemon, whereas Authorization:
 * Bearer carries the daemon's own access token whenever it has one (--token, FORGE_TOKEN).
 */
export const FAMILY_TOKEN_HEADER = 'x-forge-family';

/** `<FORGE_HOME>/cli/family-session.json`. */
export const familySessionFile = (home: string): string => join(home, 'cli', 'family-session.json');

export interface FamilyLogin {
  /** The bearer token the daemon gave at login. */
  token: string;
  /** The account it belongs to (as the daemon spells it). */
  name: string;
  /** When the login was made (ISO). */
  at: string;
}

type SessionFile = Record<string, FamilyLogin>;

/** The stored login for the daemon at `baseUrl`, if any. */
export async function readFamilyLogin(home: string, baseUrl: string): Promise<FamilyLogin | undefined> {
  return (await readLogins(familySessionFile(home)))[baseUrl];
}

/** Keep `login` for the daemon at `baseUrl` (replacing an earlier one). */
export async function saveFamilyLogin(home: string, baseUrl: string, login: FamilyLogin): Promise<void> {
  const file = familySessionFile(home);
  await writePrivateJson(file, { ...(await readLogins(file)), [baseUrl]: login });
}

/**
 * Forget the logins of the daemons `which` selects (an address, or a test of addresses); returns
 * those forgotten. The file is rewritten only when something was removed.
 */
export async function forgetFamilyLogins(
  home: string,
  which: string | ((baseUrl: string) => boolean),
): Promise<FamilyLogin[]> {
  const file = familySessionFile(home);
  const all = await readLogins(file);
  const matches = typeof which === 'string' ? (url: string) => url === which : which;
  const forgotten: FamilyLogin[] = [];
  const kept: SessionFile = {};
  for (const [url, login] of Object.entries(all)) {
    if (matches(url)) forgotten.push(login);
    else kept[url] = login;
  }
  if (forgotten.length > 0) await writePrivateJson(file, kept);
  return forgotten;
}

/** The headers that send `login`'s token. */
export const familyHeaders = (login: FamilyLogin): Record<string, string> => ({
  [FAMILY_TOKEN_HEADER]: login.token,
});

const readLogins = (file: string): Promise<SessionFile> =>
  readPerDaemon(file, (value) => {
    const v = value as Partial<FamilyLogin> | null;
    if (!v || typeof v.token !== 'string' || !v.token || typeof v.name !== 'string') return undefined;
    return { token: v.token, name: v.name, at: typeof v.at === 'string' ? v.at : '' };
  });
