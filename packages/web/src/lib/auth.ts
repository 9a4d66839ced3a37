import { useEffect, useRef, useSyncExternalStore } from 'react';
import { AUTH_TOKEN_STORAGE_KEY } from '@forge/shared/schema-free';

/**
 * The university login state (docs/product.md#live-state): signed in exactly while a token is stored under
 * `authToken`. Kept in localStorage so it survives reloads and is shared by the tabs of a browser.
 */

/** Same-tab writes do not fire `storage`, so this event tells this tab's subscribers. */
const CHANGE_EVENT = 'forge:auth-token';
/** The daemon refused the stored token (expired or revoked): screens send the user to /login. */
const EXPIRED_EVENT = 'forge:auth-expired';

export function readAuthToken(): string | null {
  try {
    return window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY);
  } catch {
    // Storage disabled (privacy mode, sandboxed frame): nobody is signed in.
    return null;
  }
}

function write(token: string | null): void {
  try {
    if (token === null) window.localStorage.removeItem(AUTH_TOKEN_STORAGE_KEY);
    else window.localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, token);
  } catch {
    /* storage disabled: the sign-in lasts as long as nothing re-reads it */
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export const storeAuthToken = (token: string): void => write(token);
export const clearAuthToken = (): void => write(null);

/**
 * The daemon answered FAMILY_AUTH_REQUIRED to `token`: forget it (unless a newer sign-in already
 * replaced it) and tell the screens, which go to /login.
 */
export function expireAuthToken(token: string): void {
  if (readAuthToken() !== token) return;
  write(null);
  window.dispatchEvent(new Event(EXPIRED_EVENT));
}

/** Run `onExpired` when the stored token is refused by the daemon, while the caller is mounted. */
export function useAuthExpired(onExpired: () => void): void {
  const latest = useRef(onExpired);
  useEffect(() => {
    latest.current = onExpired;
  });
  useEffect(() => {
    const listener = () => latest.current();
    window.addEventListener(EXPIRED_EVENT, listener);
    return () => window.removeEventListener(EXPIRED_EVENT, listener);
  }, []);
}

function subscribe(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    // Another tab signed in or out (null key: the whole storage was cleared).
    if (event.key === AUTH_TOKEN_STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored token, re-rendering when this or another tab signs in or out. */
export function useAuthToken(): string | null {
  return useSyncExternalStore(subscribe, readAuthToken, () => null);
}
