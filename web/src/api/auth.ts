import { useSyncExternalStore } from 'react';

/**
 * The signed-in state of the app. The access token lives in memory only (never in localStorage):
 * on a reload, and before it expires while the user is active, the app asks
 * POST /api/session/refresh, authenticated by the httpOnly refresh cookie and the CSRF token
 * (readable cookie `pqs_csrf`), for a new one (api/keepAlive.ts). See docs/web.md "Sessions".
 */
export type Role = 'superadmin' | 'admin' | 'sales' | 'external_sales' | 'contact' | 'guest';
export type Me = {
  id: string;
  role: Role;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  language: string | null;
  organisationId: string;
  companyIds?: string[];
};
/** When the access token and the session expire, in this browser's clock (ms), and their lifetimes. */
export type SessionTimes = {
  accessExpiresAt: number;
  accessLifetime: number;
  sessionExpiresAt: number;
  sessionLifetime: number;
  refreshedAt: number;
};
export type AuthState = {
  status: 'unknown' | 'signed-out' | 'signed-in';
  token?: string;
  me?: Me;
  session?: SessionTimes;
  /** Why the app was signed out (a problem code: session_expired, refresh_token_reused...). */
  reason?: string;
};

let state: AuthState = { status: 'unknown' };
const listeners = new Set<() => void>();

export const auth = {
  get: () => state,
  set(next: AuthState) {
    state = next;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useAuth = () => useSyncExternalStore(auth.subscribe, auth.get);

/** The CSRF token of the session cookie, for the cookie-authenticated calls (refresh). */
export function csrfToken(): string | undefined {
  const match = /(?:^|;\s*)pqs_csrf=([^;]+)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

export const isStaff = (role?: Role) =>
  role === 'superadmin' || role === 'admin' || role === 'sales' || role === 'external_sales';
