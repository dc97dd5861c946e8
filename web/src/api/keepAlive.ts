import { useSyncExternalStore } from 'react';
import { auth } from './auth.ts';
import { refreshSession, signedOut } from './client.ts';

/**
 * Sliding sessions in the app (docs/web.md "Sessions"): while the user is active (a key, a click, a
 * touch, a scroll since the last refresh) the access token is refreshed shortly before it expires,
 * which also moves the session's idle limit forward. An idle user is not refreshed: shortly before
 * the session's end a warning offers "Stay signed in"; at its end the app signs out with the
 * reason `session_expired`, and the forms' drafts (ui/drafts.ts) are restored after sign-in.
 */
let lastActivity = Date.now();
let warningUntil: number | undefined;
/** A refresh that failed without an answer (network) is not tried again for a few seconds. */
let retryAfter = 0;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** The session's end while the warning is shown, else undefined. */
export const useSessionWarning = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => warningUntil,
  );

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'input'] as const;

/** Refresh this long before the access token expires (a third of its life, at most a minute). */
const refreshLead = (lifetime: number) => Math.min(60_000, lifetime / 3);
/** Warn this long before the session ends (a quarter of its idle life, at most two minutes). */
const warningLead = (lifetime: number) => Math.min(120_000, lifetime / 4);

function tick() {
  const state = auth.get();
  const session = state.session;
  const now = Date.now();
  if (state.status !== 'signed-in' || !session) {
    if (warningUntil !== undefined) {
      warningUntil = undefined;
      notify();
    }
    return;
  }
  if (now >= session.sessionExpiresAt) {
    warningUntil = undefined;
    notify();
    signedOut('session_expired');
    return;
  }
  const active = lastActivity > session.refreshedAt;
  if (active && now >= retryAfter && now >= session.accessExpiresAt - refreshLead(session.accessLifetime)) {
    retryAfter = now + 5000;
    void refreshSession().then((ok) => {
      if (ok) retryAfter = 0;
    });
    return;
  }
  const warn = now >= session.sessionExpiresAt - warningLead(session.sessionLifetime);
  const next = warn ? session.sessionExpiresAt : undefined;
  if (next !== warningUntil) {
    warningUntil = next;
    notify();
  }
}

/** Starts watching activity and the session's times; returns the function that stops it. */
export function startKeepAlive(): () => void {
  const onActivity = () => {
    // While the warning is shown only its button counts: a stray key does not hide it silently.
    if (warningUntil === undefined) lastActivity = Date.now();
  };
  for (const event of ACTIVITY_EVENTS)
    window.addEventListener(event, onActivity, { passive: true, capture: true });
  const timer = window.setInterval(tick, 1000);
  return () => {
    for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity, { capture: true });
    window.clearInterval(timer);
  };
}

/** "Stay signed in": a refresh now. */
export async function staySignedIn() {
  lastActivity = Date.now();
  await refreshSession();
  warningUntil = undefined;
  notify();
}
